// loops that are not in canonical form
void f(int n, double *a) {
  int i = 0;
  while (i < n) {
    a[i] = 0;
    i++;
  }
  for (int k = 1; k < n; k *= 2)
    a[k] = 1;
  for (int j = 0; j < n; j++) {
    a[j] = 2;
    if (a[j] > 1)
      j++;
  }
  for (int q = 0; q < n; q--)
    a[q] = 3;
}
