// mvt, natural: x1 += A y1 with a thread per row (consecutive threads are a row apart) and
// x2 += A^T y2 with a thread per column (coalesced).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif

int main(void) {
    int n = N;
    float *A = malloc(sizeof(float) * n * n);
    float *x1 = malloc(sizeof(float) * n);
    float *x2 = malloc(sizeof(float) * n);
    float *y1 = malloc(sizeof(float) * n);
    float *y2 = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        x1[i] = (float)(i % n) / n;
        x2[i] = (float)((i + 1) % n) / n;
        y1[i] = (float)((i + 3) % n) / n;
        y2[i] = (float)((i + 4) % n) / n;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (float)(i * j % n) / n;
    }
#pragma omp target data map(to : A[0:n * n], y1[0:n], y2[0:n]) map(tofrom : x1[0:n], x2[0:n])
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            float t = x1[i];
            for (int j = 0; j < n; j++)
                t += A[i * n + j] * y1[j];
            x1[i] = t;
        }
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            float t = x2[i];
            for (int j = 0; j < n; j++)
                t += A[j * n + i] * y2[j];
            x2[i] = t;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += x1[i] * (double)(i % 5 + 1) + x2[i] * (double)(i % 3 + 1);
    printf("mvt n=%d checksum %.9e\n", n, sum);
    free(A);
    free(x1);
    free(x2);
    free(y1);
    free(y2);
    return 0;
}
