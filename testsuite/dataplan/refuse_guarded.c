// No map clause and a neighbour read under a condition on the data: nothing bounds i + 1
// there, so the analysis cannot prove that a[i+1] at i = n-1 lies in the object; 'a' is not
// planned (and keeps its zero-length map), and 'b', which may alias it, is not planned either.
void smooth(const double *a, double *b, const int *edge, int n, int steps) {
  for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      b[i] = a[i] + (edge[i] ? 0.0 : a[i + 1]);
  }
}
