// jacobi, natural: TSTEPS 5-point Jacobi sweeps with the row loop distributed (a thread per
// row walks its row: consecutive threads are a row apart in memory).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif
#ifndef TSTEPS
#define TSTEPS 2
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
#pragma omp target teams distribute parallel for
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                                       A[(i + 1) * n + j] + A[(i - 1) * n + j]);
#pragma omp target teams distribute parallel for
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                A[i * n + j] = 0.2f * (B[i * n + j] + B[i * n + j - 1] + B[i * n + j + 1] +
                                       B[(i + 1) * n + j] + B[(i - 1) * n + j]);
    }
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += A[i] * (double)(i % 9 + 1);
    printf("jacobi n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    return 0;
}
