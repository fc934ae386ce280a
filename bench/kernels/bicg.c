// bicg: the BiCG sub-kernel of PolyBench: s = A^T r and q = A p for an N x N matrix (two
// kernels, one reading A by columns, one by rows).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 256
#endif
#endif

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *r = malloc(sizeof(float) * n);
    float *p = malloc(sizeof(float) * n);
    float *s = malloc(sizeof(float) * n);
    float *q = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        r[i] = (float)(i % n) / n;
        p[i] = (float)(i % 7) / 7.0f;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (float)(i * (j + 1) % n) / n;
    }
#pragma omp target data map(to : A[0:n * n], r[0:n], p[0:n]) map(from : s[0:n], q[0:n])
    {
#pragma omp target teams distribute parallel for map(to : A[0:n * n], r[0:n]) map(alloc : s[0:n])
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int i = 0; i < n; i++)
                acc += r[i] * A[i * n + j];
            s[j] = acc;
        }
#pragma omp target teams distribute parallel for map(to : A[0:n * n], p[0:n]) map(alloc : q[0:n])
        for (int i = 0; i < n; i++) {
            float acc = 0.0f;
            for (int j = 0; j < n; j++)
                acc += A[i * n + j] * p[j];
            q[i] = acc;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += s[i] * (double)(i % 5 + 1) + q[i] * (double)(i % 3 + 1);
    printf("bicg n=%d checksum %.9e\n", n, sum);
    free(A);
    free(r);
    free(p);
    free(s);
    free(q);
    return 0;
}
