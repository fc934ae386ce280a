// The neighbour reads are guarded by conditions, so the analysis cannot prove their elements
// (a[i-1] at i = 0) lie in the object; the map clauses vouch for the sections, so both are
// planned with them.
void smooth(const double *a, double *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(to: a[0:n]) map(tofrom: b[0:n])
    for (int i = 0; i < n; i++)
      b[i] = (i > 0 ? a[i - 1] : 0.0) + a[i] + (i < n - 1 ? a[i + 1] : 0.0);
  }
}
