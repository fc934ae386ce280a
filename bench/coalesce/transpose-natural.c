// transpose, natural: B = A^T + C with a thread per row of B (B and C are read and written a
// row apart by consecutive threads; only A's column is contiguous across them).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *B = malloc(sizeof(float) * n * n);
    float *C = malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)((i * 3 + j) % n) / n;
            C[i * n + j] = (float)((i + j * 5) % n) / n;
        }
#pragma omp target teams distribute parallel for map(to : A[0:n * n], C[0:n * n]) map(from : B[0:n * n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            B[i * n + j] = A[j * n + i] + C[i * n + j];
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += B[i] * (double)(i % 9 + 1);
    printf("transpose n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    free(C);
    return 0;
}
