// non-affine subscripts
void f(int n, int m, double *a, double *b, double *c, double *d) {
  for (int i = 0; i < n; i++) {
    a[i % m] = 1;
    b[i * i] = 2;
    c[i >> 1] = 3;
    for (int j = 0; j < m; j++)
      d[i * j] = 4;
  }
}
