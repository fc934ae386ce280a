// element reductions: an update of one element in every iteration of the inner loop
void gemv(int n, const double *restrict A, const double *restrict x, double *restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
}
void maybe_aliased(int n, const double *A, double *y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j];
}
void also_read(int n, double *restrict y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] *= y[j];
}
