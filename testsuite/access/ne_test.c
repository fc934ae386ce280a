// '!=' tests with unit steps, and the bound on the left
void f(int n, double *a) {
  for (int i = 0; i != n; ++i)
    a[i] = 0;
  for (int i = n; 0 < i; --i)
    a[i - 1] = 1;
}
// counters that may wrap are not canonical
void g(unsigned n, double *a) {
  for (char c = 0; c < 100; c++)
    a[c] = 0;
  for (unsigned i = n; i >= 0; i--)
    a[i] = 1;
  for (unsigned i = n; i >= 1; i--)
    a[i] = 3;
  for (unsigned i = n; i > 0; i--)
    a[i - 1] = 2;
}
