/* In the shape of PolyBench jacobi-2d: time steps of two 5-point sweeps (A -> B, B -> A) on
 * global fixed-size arrays, each sweep a collapse(2) parallel loop. */
#include <stdio.h>

#define N 90
#define TSTEPS 30

static double A[N][N], B[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = ((double)i * (j + 2) + 2) / N;
            B[i][j] = ((double)i * (j + 3) + 3) / N;
        }
    for (int t = 0; t < TSTEPS; t++) {
#pragma omp parallel for collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
#pragma omp parallel for collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += A[i][j];
    printf("sum(A)=%.6f A[1][1]=%.6f A[45][45]=%.6f A[88][70]=%.6f\n", sum, A[1][1], A[45][45],
           A[N - 2][70]);
    return 0;
}
