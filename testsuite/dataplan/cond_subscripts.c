// No map clause and subscripts chosen by a condition: each arm is bounded by its condition
// (a ring: i > 0 reads a[i - 1], else a[n - 1]; i < n - 1 reads a[i + 1], else a[0]), so every
// read lies in a[0:n]. b[i] is written whole (copied out only); c is written under a
// conditional subscript, which may skip elements: it is copied in too.
void ring(const double *restrict a, double *restrict b, double *restrict c, int n,
          int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
      b[i] = a[i > 0 ? i - 1 : n - 1] + a[i] + a[i < n - 1 ? i + 1 : 0];
      c[i % 2 ? i : 0] = a[i];
      c[i] += 1.0;
    }
  }
}
