// a triangular nest: the inner bound is the outer loop variable
#define N 100
double a[N][N];
void lower(int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      a[i][j] = a[j][i] + 1.0;
}
void upper(int n, double *x) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j <= n; j++)
      x[j] += x[i];
}
