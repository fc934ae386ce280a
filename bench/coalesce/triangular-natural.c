// triangular, natural: the lower triangle of B = (A + A^T) / 2 with a thread per row i and
// j <= i (consecutive threads are a row apart in B and in A[i][j]).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *B = malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)((i * 5 + j * 3) % n) / n;
            B[i * n + j] = 0.0f;
        }
#pragma omp target teams distribute parallel for map(to : A[0:n * n]) map(tofrom : B[0:n * n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            B[i * n + j] = 0.5f * (A[i * n + j] + A[j * n + i]);
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += B[i] * (double)(i % 9 + 1);
    printf("triangular n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    return 0;
}
