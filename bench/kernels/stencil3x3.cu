// stencil3x3 (CUDA reference of stencil3x3.c): 3x3 weighted stencil with the taps as a
// constant-bound loop pair over a local weight array, one thread per interior point.
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 128
#endif
#endif

__global__ void stencil(int n, const float *__restrict__ in, float *__restrict__ out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (y < n - 1 && x < n - 1) {
        float w[3][3] = {{0.0625f, 0.125f, 0.0625f}, {0.125f, 0.25f, 0.125f},
                         {0.0625f, 0.125f, 0.0625f}};
        float sum = 0.0f;
        for (int dy = 0; dy < 3; dy++)
            for (int dx = 0; dx < 3; dx++)
                sum += w[dy][dx] * in[(y + dy - 1) * n + (x + dx - 1)];
        out[y * n + x] = sum;
    }
}

int main(void) {
    int n = N;
    float *in = (float *)malloc(sizeof(float) * n * n);
    float *out = (float *)malloc(sizeof(float) * n * n);
    for (int i = 0; i < n * n; i++) {
        in[i] = (float)(i % 37) / 37.0f;
        out[i] = 0.0f;
    }
    float *din = to_device(in, (size_t)n * n), *dout = to_device(out, (size_t)n * n);
    dim3 block(32, 8), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8);
    KernelTimer timer;
    timer.start();
    stencil<<<grid, block>>>(n, din, dout);
    timer.stop();
    to_host(out, dout, (size_t)n * n);
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += out[i] * (double)(i % 9 + 1);
    printf("stencil3x3 n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
