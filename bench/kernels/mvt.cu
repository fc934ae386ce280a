// mvt (CUDA reference of mvt.c): x1 += A y1 (a thread per row), x2 += A^T y2 (a thread per
// column of A).
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 256
#endif
#endif

__global__ void rows(int n, const float *__restrict__ A, const float *__restrict__ y1,
                     float *__restrict__ x1) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = x1[i];
        for (int j = 0; j < n; j++)
            acc += A[i * n + j] * y1[j];
        x1[i] = acc;
    }
}

__global__ void columns(int n, const float *__restrict__ A, const float *__restrict__ y2,
                        float *__restrict__ x2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = x2[i];
        for (int j = 0; j < n; j++)
            acc += A[j * n + i] * y2[j];
        x2[i] = acc;
    }
}

int main(void) {
    int n = N;
    float *A = (float *)malloc(sizeof(float) * n * n);
    float *x1 = (float *)malloc(sizeof(float) * n);
    float *x2 = (float *)malloc(sizeof(float) * n);
    float *y1 = (float *)malloc(sizeof(float) * n);
    float *y2 = (float *)malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        x1[i] = (float)(i % n) / n;
        x2[i] = (float)((i + 1) % n) / n;
        y1[i] = (float)((i + 3) % n) / n;
        y2[i] = (float)((i + 4) % n) / n;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (float)(i * j % n) / n;
    }
    float *dA = to_device(A, (size_t)n * n), *dy1 = to_device(y1, n), *dy2 = to_device(y2, n);
    float *dx1 = to_device(x1, n), *dx2 = to_device(x2, n);
    KernelTimer timer;
    timer.start();
    rows<<<blocks_for(n), THREADS>>>(n, dA, dy1, dx1);
    timer.stop();
    timer.start();
    columns<<<blocks_for(n), THREADS>>>(n, dA, dy2, dx2);
    timer.stop();
    to_host(x1, dx1, n);
    to_host(x2, dx2, n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += x1[i] * (double)(i % 5 + 1) + x2[i] * (double)(i % 3 + 1);
    printf("mvt n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
