// heat3d (CUDA reference of heat3d.c): TSTEPS pairs of 7-point sweeps, A -> B -> A, one
// thread per interior point (x walks k, the contiguous index).
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 256
#else
#define N 32
#endif
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

__global__ void sweep(int n, const double *__restrict__ src, double *__restrict__ dst) {
    int k = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    int i = blockIdx.z + 1;
    int nn = n * n;
    if (i < n - 1 && j < n - 1 && k < n - 1) {
        int c = i * nn + j * n + k;
        dst[c] = 0.125 * (src[c + nn] - 2.0 * src[c] + src[c - nn]) +
                 0.125 * (src[c + n] - 2.0 * src[c] + src[c - n]) +
                 0.125 * (src[c + 1] - 2.0 * src[c] + src[c - 1]) + src[c];
    }
}

int main(void) {
    int n = N;
    int nn = n * n;
    double *A = (double *)malloc(sizeof(double) * nn * n);
    double *B = (double *)malloc(sizeof(double) * nn * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                A[i * nn + j * n + k] = (double)(i + j + (n - k)) * 10 / n;
                B[i * nn + j * n + k] = A[i * nn + j * n + k];
            }
    double *dA = to_device(A, (size_t)nn * n), *dB = to_device(B, (size_t)nn * n);
    dim3 block(32, 8), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8, n - 2);
    KernelTimer timer;
    for (int t = 0; t < TSTEPS; t++) {
        timer.start();
        sweep<<<grid, block>>>(n, dA, dB);
        timer.stop();
        timer.start();
        sweep<<<grid, block>>>(n, dB, dA);
        timer.stop();
    }
    to_host(A, dA, (size_t)nn * n);
    double sum = 0.0;
    for (int i = 0; i < nn * n; i++)
        sum += A[i] * (double)(i % 9 + 1);
    printf("heat3d n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
