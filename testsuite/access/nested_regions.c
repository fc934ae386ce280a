// a target data region with a target and a parallel construct inside
void f(int n, double *a, double *b) {
#pragma omp target data map(tofrom: a[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      a[i] = a[i] + 1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      b[i] = 2 * i;
  }
}
