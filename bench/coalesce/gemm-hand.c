// gemm, hand-coalesced: the same product with a thread per column of C (consecutive threads
// read consecutive elements of B and C; A[i][k] is one address for the whole warp).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 128
#endif

int main(void) {
    int n = N;
    float alpha = 1.5f, beta = 1.2f;
    float *A = malloc(sizeof(float) * n * n);
    float *B = malloc(sizeof(float) * n * n);
    float *C = malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)((i * j + 1) % n) / n;
            B[i * n + j] = (float)((i * (j + 1) + 2) % n) / n;
            C[i * n + j] = (float)((i * (j + 2) + 3) % n) / n;
        }
#pragma omp target teams distribute parallel for map(to : A[0:n * n], B[0:n * n]) map(tofrom : C[0:n * n])
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = alpha * s + beta * C[i * n + j];
        }
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += C[i] * (double)(i % 7 + 1);
    printf("gemm n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    free(C);
    return 0;
}
