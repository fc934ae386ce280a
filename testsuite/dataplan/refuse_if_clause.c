// A region with an 'if' clause may run on the host, where it would read the host copy while
// the planned data is on the device: the function is left as written.
void scale(double *a, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for if(n > 100) map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] *= 0.5;
  }
}
