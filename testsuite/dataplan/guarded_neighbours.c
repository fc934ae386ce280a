// No map clause and neighbour reads under conditions: the conditions bound the loop variable
// (i > 0 for a[i-1], i < n-1 for a[i+1]), so every read lies in a[0:n], which the
// unconditional a[i] proves exists; both pointers are planned, under a run-time check that
// they do not overlap.
void smooth(const double *a, double *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      b[i] = (i > 0 ? a[i - 1] : 0.0) + a[i] + (i < n - 1 ? a[i + 1] : 0.0);
  }
}
