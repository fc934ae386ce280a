// atax, natural: y = A^T (A x); tmp = A x with a thread per row (a row-major row per thread:
// consecutive threads are a row apart), then y with a thread per column (coalesced).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *x = malloc(sizeof(float) * n);
    float *y = malloc(sizeof(float) * n);
    float *tmp = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        x[i] = 1.0f + (float)i / n;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (float)((i + j) % n) / (5.0f * n);
    }
#pragma omp target data map(to : A[0:n * n], x[0:n]) map(alloc : tmp[0:n]) map(from : y[0:n])
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            float t = 0.0f;
            for (int j = 0; j < n; j++)
                t += A[i * n + j] * x[j];
            tmp[i] = t;
        }
#pragma omp target teams distribute parallel for
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int i = 0; i < n; i++)
                s += A[i * n + j] * tmp[i];
            y[j] = s;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 9 + 1);
    printf("atax n=%d checksum %.9e\n", n, sum);
    free(A);
    free(x);
    free(y);
    free(tmp);
    return 0;
}
