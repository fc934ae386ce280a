// two loops over different ranges of one array: the join needs max
void f(int n, int m, double *a) {
  for (int i = 0; i < n; i++)
    a[i] = 0;
  for (int i = 2; i < m; i++)
    a[i] = 1;
  for (int i = 0; i < n; i++)
    a[i + 1] += 2;
}
