// argument shapes: a row of a 2-D array, and a flattened 2-D array
void fill(int n, double *x) {
  for (int i = 0; i < n; i++)
    x[i] = 1.0;
}
void rowwise(int n, double a[n][n]) {
  for (int i = 0; i < n; i++)
    fill(n, a[i]);
}
void flat(int n, double a[n][n]) {
  fill(n * n, &a[0][0]);
}
void sub(int n, double *v) {
  fill(n - 2, &v[1]);
}
