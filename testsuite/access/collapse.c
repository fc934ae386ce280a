// a collapsed OpenMP nest
void zero(int n, int m, double *restrict a) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i * m + j] = 0.0;
}
