// linearized 2-D subscripts: n*i + j is one polynomial subscript
void scale(int n, double *a, double s) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i * n + j] *= s;
}
void shifted(int n, int m, double *a) {
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i * m + j] = a[(i - 1) * m + j];
}
