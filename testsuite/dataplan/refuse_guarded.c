// No map clause and neighbour reads under conditions: the analysis cannot prove that a[i-1]
// at i = 0 lies in the object, so 'a' is not planned (and keeps its zero-length map), and
// 'b', which may alias it, is not planned either.
void smooth(const double *a, double *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      b[i] = (i > 0 ? a[i - 1] : 0.0) + a[i] + (i < n - 1 ? a[i + 1] : 0.0);
  }
}
