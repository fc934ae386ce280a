// bicg, natural: s = A^T r with a thread per column (coalesced) and q = A p with a thread per
// row (consecutive threads are a row apart).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
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
#pragma omp target teams distribute parallel for
        for (int j = 0; j < n; j++) {
            float t = 0.0f;
            for (int i = 0; i < n; i++)
                t += r[i] * A[i * n + j];
            s[j] = t;
        }
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            float t = 0.0f;
            for (int j = 0; j < n; j++)
                t += A[i * n + j] * p[j];
            q[i] = t;
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
