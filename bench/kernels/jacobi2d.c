// jacobi-2d: TSTEPS Jacobi sweeps (5-point average) on an N x N grid, ping-ponging between A
// and B (PolyBench JACOBI-2D, two kernels per step, data kept on the device).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N 4096
#else
#define N 128
#endif
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *B = malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = ((float)i * (j + 2) + 2) / n;
            B[i * n + j] = ((float)i * (j + 3) + 3) / n;
        }
#pragma omp target data map(tofrom : A[0:n * n], B[0:n * n])
    for (int t = 0; t < TSTEPS; t++) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : A[0:n * n], B[0:n * n])
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                                       A[(i + 1) * n + j] + A[(i - 1) * n + j]);
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : A[0:n * n], B[0:n * n])
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                A[i * n + j] = 0.2f * (B[i * n + j] + B[i * n + j - 1] + B[i * n + j + 1] +
                                       B[(i + 1) * n + j] + B[(i - 1) * n + j]);
    }
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += A[i] * (double)(i % 9 + 1);
    printf("jacobi2d n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    return 0;
}
