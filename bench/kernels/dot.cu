// dot (CUDA reference of dot.c): grid-stride partial sums, a block reduction (warp shuffles,
// then one warp over the warps' sums) and one atomicAdd per block.
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N (1 << 25)
#else
#define N 100000
#endif
#endif

__global__ void dot(int n, const double *__restrict__ x, const double *__restrict__ y,
                    double *__restrict__ sum) {
    double acc = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += x[i] * y[i];
    block_sum_into<THREADS>(acc, sum);
}

int main(void) {
    int n = N;
    double *x = (double *)malloc(sizeof(double) * n);
    double *y = (double *)malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 23) * 0.125;
        y[i] = (double)(i % 7) - 2.0;
    }
    double *dx = to_device(x, n), *dy = to_device(y, n);
    double sum = 0.0;
    double *dsum = to_device(&sum, 1);
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned grid = blocks_for(n) < 8u * sms ? blocks_for(n) : 8u * sms;
    KernelTimer timer;
    timer.start();
    dot<<<grid, THREADS>>>(n, dx, dy, dsum);
    timer.stop();
    to_host(&sum, dsum, 1);
    printf("dot n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
