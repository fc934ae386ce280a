// atax (CUDA reference of atax.c): tmp = A x (a thread per row), then y = A^T tmp (a thread
// per column), as PolyBench's GPU versions do.
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 256
#endif
#endif

__global__ void row_sums(int n, const float *__restrict__ A, const float *__restrict__ x,
                         float *__restrict__ tmp) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        for (int j = 0; j < n; j++)
            t += A[i * n + j] * x[j];
        tmp[i] = t;
    }
}

__global__ void column_sums(int n, const float *__restrict__ A, const float *__restrict__ tmp,
                            float *__restrict__ y) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += A[i * n + j] * tmp[i];
        y[j] = s;
    }
}

int main(void) {
    int n = N;
    float *A = (float *)malloc(sizeof(float) * n * n);
    float *x = (float *)malloc(sizeof(float) * n);
    float *y = (float *)malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        x[i] = 1.0f + (float)i / n;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (float)((i + j) % n) / (5.0f * n);
    }
    float *dA = to_device(A, (size_t)n * n), *dx = to_device(x, n);
    float *dtmp, *dy;
    CHECK(cudaMalloc(&dtmp, sizeof(float) * n));
    CHECK(cudaMalloc(&dy, sizeof(float) * n));
    KernelTimer timer;
    timer.start();
    row_sums<<<blocks_for(n), THREADS>>>(n, dA, dx, dtmp);
    timer.stop();
    timer.start();
    column_sums<<<blocks_for(n), THREADS>>>(n, dA, dtmp, dy);
    timer.stop();
    to_host(y, dy, n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 9 + 1);
    printf("atax n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
