// The host calls a function whose body is not here between the kernels: it may read or
// write the data, so the whole mapped section goes back before the call and to the device
// after it.
void inspect(double *p, int n);

void iterate(double *a, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 0.9 + 0.1;
    inspect(a, n);
  }
}
