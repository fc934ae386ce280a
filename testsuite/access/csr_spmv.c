// CSR sparse matrix-vector product: indirect bounds and subscripts
void spmv(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
      s += val[k] * x[col[k]];
    y[i] = s;
  }
}
