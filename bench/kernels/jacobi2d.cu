// jacobi2d (CUDA reference of jacobi2d.c): TSTEPS pairs of 5-point sweeps, A -> B -> A, one
// thread per interior point on a 2-D grid; the grids stay on the device.
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 4096
#else
#define N 128
#endif
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

__global__ void sweep(int n, const float *__restrict__ src, float *__restrict__ dst) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < n - 1 && j < n - 1)
        dst[i * n + j] = 0.2f * (src[i * n + j] + src[i * n + j - 1] + src[i * n + j + 1] +
                                 src[(i + 1) * n + j] + src[(i - 1) * n + j]);
}

int main(void) {
    int n = N;
    float *A = (float *)malloc(sizeof(float) * n * n);
    float *B = (float *)malloc(sizeof(float) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = ((float)i * (j + 2) + 2) / n;
            B[i * n + j] = ((float)i * (j + 3) + 3) / n;
        }
    float *dA = to_device(A, (size_t)n * n), *dB = to_device(B, (size_t)n * n);
    dim3 block(32, 8), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8);
    KernelTimer timer;
    for (int t = 0; t < TSTEPS; t++) {
        timer.start();
        sweep<<<grid, block>>>(n, dA, dB);
        timer.stop();
        timer.start();
        sweep<<<grid, block>>>(n, dB, dA);
        timer.stop();
    }
    to_host(A, dA, (size_t)n * n);
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += A[i] * (double)(i % 9 + 1);
    printf("jacobi2d n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
