// derived pointers: a chain resolves to the base; a base reassigned after the definition does not
void reassigned(int n, double *a) {
  double *p = a + 1;
  a = a + 5;
  for (int i = 0; i < n; i++)
    p[i] = 0;
}
void chain(int n, double *a) {
  for (int i = 0; i < n; i++) {
    double *row = a + i * n;
    double *x = row + 1;
    for (int j = 0; j < n - 1; j++)
      x[j] = row[j];
  }
}
