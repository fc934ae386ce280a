// conv2d (CUDA reference of conv2d.c): 3x3 convolution, one thread per interior point on a
// 2-D grid (x walks the columns).
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 128
#endif
#endif

__global__ void conv2d(int n, const float *__restrict__ A, float *__restrict__ B) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < n - 1 && j < n - 1) {
        float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
        float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
        float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
        B[i * n + j] = c11 * A[(i - 1) * n + (j - 1)] + c12 * A[i * n + (j - 1)] +
                       c13 * A[(i + 1) * n + (j - 1)] + c21 * A[(i - 1) * n + j] +
                       c22 * A[i * n + j] + c23 * A[(i + 1) * n + j] +
                       c31 * A[(i - 1) * n + (j + 1)] + c32 * A[i * n + (j + 1)] +
                       c33 * A[(i + 1) * n + (j + 1)];
    }
}

int main(void) {
    int n = N;
    float *A = (float *)malloc(sizeof(float) * n * n);
    float *B = (float *)malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)((i * 7 + j * 3) % 31) / 31.0f;
            B[i * n + j] = 0.0f;
        }
    float *dA = to_device(A, (size_t)n * n), *dB = to_device(B, (size_t)n * n);
    dim3 block(32, 8), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8);
    KernelTimer timer;
    timer.start();
    conv2d<<<grid, block>>>(n, dA, dB);
    timer.stop();
    to_host(B, dB, (size_t)n * n);
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += B[i] * (double)(i % 9 + 1);
    printf("conv2d n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
