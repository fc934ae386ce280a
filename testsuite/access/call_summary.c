// a callee's summary applied at the call site by substituting the arguments
static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
void driver(int n, double *u, double *v) {
  axpy(n, 2.0, u, v);
  axpy(n - 1, 1.0, u + 1, v);
  for (int t = 0; t < 10; t++)
    axpy(n / 2, 0.5, v, u + t);
}
