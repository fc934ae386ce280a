// gemm (CUDA reference of gemm.c): C = alpha*A*B + beta*C, one thread per C element on a 2-D
// grid (x walks the columns j, so a warp reads B and writes C contiguously).
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 2048
#else
#define N 96
#endif
#endif

__global__ void gemm(int n, float alpha, float beta, const float *__restrict__ A,
                     const float *__restrict__ B, float *__restrict__ C) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += A[i * n + k] * B[k * n + j];
        C[i * n + j] = alpha * acc + beta * C[i * n + j];
    }
}

int main(void) {
    int n = N;
    float alpha = 1.5f, beta = 1.2f;
    float *A = (float *)malloc(sizeof(float) * n * n);
    float *B = (float *)malloc(sizeof(float) * n * n);
    float *C = (float *)malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)((i * j + 1) % n) / n;
            B[i * n + j] = (float)((i * (j + 1) + 2) % n) / n;
            C[i * n + j] = (float)((i * (j + 2) + 3) % n) / n;
        }
    float *dA = to_device(A, (size_t)n * n), *dB = to_device(B, (size_t)n * n);
    float *dC = to_device(C, (size_t)n * n);
    dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
    KernelTimer timer;
    timer.start();
    gemm<<<grid, block>>>(n, alpha, beta, dA, dB, dC);
    timer.stop();
    to_host(C, dC, (size_t)n * n);
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += C[i] * (double)(i % 9 + 1);
    printf("gemm n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
