// carried dependences with constant distances
void prefix(int n, double *a) {
  for (int i = 1; i < n; i++)
    a[i] = a[i - 1] + a[i];
}
void far(int n, double *a) {
  for (int i = 0; i < n; i++)
    a[i + 3] = a[i] * 2.0;
}
void same(int n, double *a, double *restrict s) {
  for (int i = 0; i < n; i++)
    s[0] += a[i];
}
