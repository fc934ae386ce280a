// loops that count down: '--', '-=', '>' and '>=' tests
void rev(int n, double *a, const double *b) {
  for (int i = n - 1; i >= 0; i--)
    a[i] = b[n - 1 - i];
}
void down2(int n, int *a) {
  for (int i = n; i > 0; i -= 2)
    a[i - 1] = i;
}
