// '!=' tests with unit steps, and the bound on the left
void f(int n, double *a) {
  for (int i = 0; i != n; ++i)
    a[i] = 0;
  for (int i = n; 0 < i; --i)
    a[i - 1] = 1;
}
