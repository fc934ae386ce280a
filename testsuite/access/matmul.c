// gemm: three loops, a read-modify-write invariant in k
void gemm(int n, int m, int p, double C[n][m], double A[n][p], double B[p][m]) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++)
        C[i][j] += A[i][k] * B[k][j];
}
