// restrict pointers are distinct: no run-time overlap check is needed.
void axpy_steps(double *restrict y, const double *restrict x, double a, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
    for (int i = 0; i < n; i++)
      y[i] += a * x[i];
  }
}
