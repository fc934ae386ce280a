// VLA parameters: double a[n][m] is a pointer to arrays of m doubles
void transpose(int n, int m, double a[n][m], double b[m][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[j][i] = a[i][j];
}
void copy_rows(int n, int m, double (*restrict d)[m], const double (*restrict s)[m]) {
#pragma omp target teams distribute parallel for collapse(2) map(to: s[0:n][0:m]) map(from: d[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 1; j < m - 1; j++)
      d[i][j] = s[i][j - 1] + s[i][j + 1];
}
