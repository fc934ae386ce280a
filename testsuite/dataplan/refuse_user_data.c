// The function manages its device data itself: the planner leaves it as written.
void scale(double *a, int n, int steps) {
  #pragma omp target data map(tofrom: a[0:n])
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      a[i] *= 0.5;
  }
}
