// single-definition locals are replaced by their definition when hoisted out of scope
void f(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:2*n])
  for (int i = 0; i < n; i++) {
    int k = 2 * i;
    a[k] = a[k + 1];
  }
  int half = n / 2;
  for (int i = 0; i < half; i++)
    a[i] = 0;
}
