/* 2-D arrays through pointers to arrays, `double (*a)[N]`: heap matrices mapped as sections
 * a[0:M], passed to functions, and a VLA-typed parameter with the column count at run time. */
#include <stdio.h>
#include <stdlib.h>

#define M 50
#define N 40

static void fill(int m, double (*a)[N])
{
#pragma omp target teams distribute parallel for collapse(2) map(from : a[0:m])
    for (int i = 0; i < m; i++)
        for (int j = 0; j < N; j++)
            a[i][j] = i - 0.5 * j;
}

static void row_sums(int m, int n, double (*a)[n], double *out)
{
#pragma omp target teams distribute parallel for map(to : a[0:m]) map(from : out[0:m])
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += a[i][j] * a[i][j];
        out[i] = s;
    }
}

int main(void)
{
    double (*a)[N] = malloc(M * sizeof *a);
    double (*b)[N] = malloc(M * sizeof *b);
    double *rs = malloc(M * sizeof *rs);
    fill(M, a);
#pragma omp target teams distribute parallel for collapse(2) map(to : a[0:M]) map(from : b[0:M])
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            b[i][j] = a[M - 1 - i][N - 1 - j] * 2.0;
    row_sums(M, N, b, rs);
    double total = 0.0;
    for (int i = 0; i < M; i++)
        total += rs[i];
    printf("total=%.10g rs[0]=%.6f rs[49]=%.6f b[3][4]=%.6f\n", total, rs[0], rs[M - 1], b[3][4]);
    free(a);
    free(b);
    free(rs);
    return 0;
}
