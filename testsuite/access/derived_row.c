// a row pointer defined in the outer loop resolves to the base array
void rows(int n, int m, double *a, const double *b) {
  for (int i = 0; i < n; i++) {
    double *row = a + i * m;
    const double *brow = &b[i * m];
    for (int j = 0; j < m; j++)
      row[j] = brow[j] * 2.0;
  }
}
