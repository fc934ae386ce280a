// the GCD test: even and odd elements never meet
void evens_odds(int n, double *a) {
  for (int i = 0; i < n; i++)
    a[2 * i] = a[2 * i + 1];
}
void columns(int n, double (*restrict a)[64]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 64; j++)
      a[i][j] = a[i][j] + 1.0;
}
