// conv2d: 3x3 convolution of an N x N image with the coefficients written out (PolyBench
// 2DCONV: nine loads and multiply-adds per output point, no inner loop).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 128
#endif
#endif

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *B = malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)((i * 7 + j * 3) % 31) / 31.0f;
            B[i * n + j] = 0.0f;
        }
#pragma omp target teams distribute parallel for collapse(2) map(to : A[0:n * n]) map(tofrom : B[0:n * n])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++) {
            float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
            float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
            float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
            B[i * n + j] = c11 * A[(i - 1) * n + (j - 1)] + c12 * A[i * n + (j - 1)] +
                           c13 * A[(i + 1) * n + (j - 1)] + c21 * A[(i - 1) * n + j] +
                           c22 * A[i * n + j] + c23 * A[(i + 1) * n + j] +
                           c31 * A[(i - 1) * n + (j + 1)] + c32 * A[i * n + (j + 1)] +
                           c33 * A[(i + 1) * n + (j + 1)];
        }
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += B[i] * (double)(i % 9 + 1);
    printf("conv2d n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    return 0;
}
