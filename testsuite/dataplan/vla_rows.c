// A pointer to rows of a variable-length array: the section has two dimensions.
void relax(int n, int m, double (*g)[m], int steps) {
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for collapse(2) map(tofrom: g[0:n][0:m])
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        g[i][j] = g[i][j] * 0.25 + 1.0;
  }
}
