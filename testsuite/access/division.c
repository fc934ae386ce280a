// division and shifts by constants
void f(int n, double *a, double *b) {
  for (int i = 0; i < n / 2; i++)
    a[2 * i] = b[i / 2];
  for (int i = 0; i < n; i++)
    a[i << 2] = b[(i + 1) / 4];
}
