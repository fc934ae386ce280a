// a parallel region holding work-sharing loops and a single
void f(int n, double *x, double *y, double *norm) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      x[i] = i;
#pragma omp single
    *norm = 0;
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = x[n - 1 - i];
  }
}
