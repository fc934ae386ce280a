// a 3-D stencil through a pointer to a 2-D VLA
void stencil(int n, double (*restrict out)[n][n], double (*restrict in)[n][n]) {
#pragma omp target teams distribute parallel for collapse(3)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++)
        out[i][j][k] = in[i - 1][j][k] + in[i + 1][j][k] + in[i][j][k - 1] + in[i][j][k + 1];
}
