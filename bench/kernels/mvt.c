// mvt: x1 += A y1 and x2 += A^T y2 for an N x N matrix (PolyBench MVT, two kernels).
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
#pragma omp target teams distribute parallel for map(to : A[0:n * n], y1[0:n]) map(tofrom : x1[0:n])
        for (int i = 0; i < n; i++) {
            float acc = x1[i];
            for (int j = 0; j < n; j++)
                acc += A[i * n + j] * y1[j];
            x1[i] = acc;
        }
#pragma omp target teams distribute parallel for map(to : A[0:n * n], y2[0:n]) map(tofrom : x2[0:n])
        for (int i = 0; i < n; i++) {
            float acc = x2[i];
            for (int j = 0; j < n; j++)
                acc += A[j * n + i] * y2[j];
            x2[i] = acc;
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
