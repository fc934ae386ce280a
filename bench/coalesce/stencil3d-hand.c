// stencil3d, hand-coalesced: the same stencil with the contiguous (k) loop distributed and
// the other two run by each thread: consecutive threads read consecutive elements.
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 48
#endif
#ifndef TSTEPS
#define TSTEPS 2
#endif

int main(void) {
    int n = N;
    long size = (long)n * n * n;
    float *A = malloc(sizeof(float) * size);
    float *B = malloc(sizeof(float) * size);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                A[(i * n + j) * n + k] = (float)((i + j + (n - k)) * 10) / n;
                B[(i * n + j) * n + k] = A[(i * n + j) * n + k];
            }
#pragma omp target data map(tofrom : A[0:size], B[0:size])
    for (int t = 0; t < TSTEPS; t++) {
#pragma omp target teams distribute parallel for
        for (int k = 1; k < n - 1; k++)
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    B[(i * n + j) * n + k] =
                        0.125f * (A[((i + 1) * n + j) * n + k] - 2.0f * A[(i * n + j) * n + k] +
                                  A[((i - 1) * n + j) * n + k]) +
                        0.125f * (A[(i * n + j + 1) * n + k] - 2.0f * A[(i * n + j) * n + k] +
                                  A[(i * n + j - 1) * n + k]) +
                        0.125f * (A[(i * n + j) * n + k + 1] - 2.0f * A[(i * n + j) * n + k] +
                                  A[(i * n + j) * n + k - 1]) +
                        A[(i * n + j) * n + k];
#pragma omp target teams distribute parallel for
        for (int k = 1; k < n - 1; k++)
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    A[(i * n + j) * n + k] =
                        0.125f * (B[((i + 1) * n + j) * n + k] - 2.0f * B[(i * n + j) * n + k] +
                                  B[((i - 1) * n + j) * n + k]) +
                        0.125f * (B[(i * n + j + 1) * n + k] - 2.0f * B[(i * n + j) * n + k] +
                                  B[(i * n + j - 1) * n + k]) +
                        0.125f * (B[(i * n + j) * n + k + 1] - 2.0f * B[(i * n + j) * n + k] +
                                  B[(i * n + j) * n + k - 1]) +
                        B[(i * n + j) * n + k];
    }
    double sum = 0.0;
    for (long i = 0; i < size; i++)
        sum += A[i] * (double)(i % 9 + 1);
    printf("stencil3d n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    return 0;
}
