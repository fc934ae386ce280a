// conditional subscripts: one access per arm, each under its condition
void ring(int n, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i > 0 ? i - 1 : n - 1] + x[i < n - 1 ? i + 1 : 0];
}

// clamped 2-D neighbours, and a write whose row is chosen
void clamp(int rows, int cols, double (*J)[cols], double (*d)[cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      d[i][j] = J[i > 0 ? i - 1 : 0][j < cols - 1 ? j + 1 : cols - 1] - J[i][j];
  for (int i = 0; i < rows; i++)
    d[i % 2 ? i : 0][0] = 1;
}

// a condition on something else than a loop variable bounds nothing; three are not followed
void other(int n, int flag, double *a, const int *k) {
  for (int i = 0; i < n; i++)
    a[flag ? i : n - 1 - i] = 0;
  for (int i = 0; i < n; i++)
    a[(i > 1 ? i : 1) + (i > 2 ? 0 : 1) + (i > 3 ? 0 : 1)] = k[i > 0 ? i - 1 : i];
}
