// bicg, hand-coalesced: s = A^T r as in the natural version; q = A p by LANES threads per row
// (lane l sums elements l, l+LANES, ...), the partial sums added by a second kernel.
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif
#define LANES 32

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *r = malloc(sizeof(float) * n);
    float *p = malloc(sizeof(float) * n);
    float *s = malloc(sizeof(float) * n);
    float *q = malloc(sizeof(float) * n);
    float *part = malloc(sizeof(float) * n * LANES);
    for (int i = 0; i < n; i++) {
        r[i] = (float)(i % n) / n;
        p[i] = (float)(i % 7) / 7.0f;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (float)(i * (j + 1) % n) / n;
    }
#pragma omp target data map(to : A[0:n * n], r[0:n], p[0:n]) map(from : s[0:n], q[0:n]) map(alloc : part[0:n * LANES])
    {
#pragma omp target teams distribute parallel for
        for (int j = 0; j < n; j++) {
            float t = 0.0f;
            for (int i = 0; i < n; i++)
                t += r[i] * A[i * n + j];
            s[j] = t;
        }
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i < n; i++)
            for (int l = 0; l < LANES; l++) {
                float t = 0.0f;
                for (int j = l; j < n; j += LANES)
                    t += A[i * n + j] * p[j];
                part[i * LANES + l] = t;
            }
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            float t = 0.0f;
            for (int l = 0; l < LANES; l++)
                t += part[i * LANES + l];
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
    free(part);
    return 0;
}
