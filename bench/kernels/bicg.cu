// bicg (CUDA reference of bicg.c): s = A^T r (a thread per column), q = A p (a thread per row).
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 256
#endif
#endif

__global__ void transposed(int n, const float *__restrict__ A, const float *__restrict__ r,
                           float *__restrict__ s) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        float acc = 0.0f;
        for (int i = 0; i < n; i++)
            acc += r[i] * A[i * n + j];
        s[j] = acc;
    }
}

__global__ void product(int n, const float *__restrict__ A, const float *__restrict__ p,
                        float *__restrict__ q) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++)
            acc += A[i * n + j] * p[j];
        q[i] = acc;
    }
}

int main(void) {
    int n = N;
    float *A = (float *)malloc(sizeof(float) * n * n);
    float *r = (float *)malloc(sizeof(float) * n);
    float *p = (float *)malloc(sizeof(float) * n);
    float *s = (float *)malloc(sizeof(float) * n);
    float *q = (float *)malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        r[i] = (float)(i % n) / n;
        p[i] = (float)(i % 7) / 7.0f;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (float)(i * (j + 1) % n) / n;
    }
    float *dA = to_device(A, (size_t)n * n), *dr = to_device(r, n), *dp = to_device(p, n);
    float *ds, *dq;
    CHECK(cudaMalloc(&ds, sizeof(float) * n));
    CHECK(cudaMalloc(&dq, sizeof(float) * n));
    KernelTimer timer;
    timer.start();
    transposed<<<blocks_for(n), THREADS>>>(n, dA, dr, ds);
    timer.stop();
    timer.start();
    product<<<blocks_for(n), THREADS>>>(n, dA, dp, dq);
    timer.stop();
    to_host(s, ds, n);
    to_host(q, dq, n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += s[i] * (double)(i % 5 + 1) + q[i] * (double)(i % 3 + 1);
    printf("bicg n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
