/* heat-3d: two 20^3 grids, 10 time steps, each step two kernels (A to B, B to A) with collapse(3)
 * inside a target data region. */
#include <stdio.h>

#define N 20
#define STEPS 10

static double A[N][N][N], B[N][N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                A[i][j][k] = B[i][j][k] = (double)((i * j + k * k) % 11) * 0.5;
#pragma omp target data map(tofrom : A, B)
    for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for collapse(3)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                                 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                                 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) +
                                 A[i][j][k];
#pragma omp target teams distribute parallel for collapse(3)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) +
                                 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k]) +
                                 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) +
                                 B[i][j][k];
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                s += A[i][j][k];
    printf("sum=%.10g A[1][1][1]=%.10g A[10][10][10]=%.10g A[18][3][7]=%.10g\n", s, A[1][1][1],
           A[10][10][10], A[18][3][7]);
    return 0;
}
