// recursion makes the cycle's effects unknown
void fill(int n, double *a) {
  if (n <= 0)
    return;
  a[n - 1] = n;
  fill(n - 1, a);
}
void top(int n, double *b) {
  fill(n, b);
  for (int i = 0; i < n; i++)
    b[i] += 1.0;
}
