// saxpy (CUDA reference of saxpy.c): y = a*x + y, one thread per element.
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N (1 << 26)
#else
#define N 100000
#endif
#endif

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main(void) {
    int n = N;
    float a = 2.5f;
    float *x = (float *)malloc(sizeof(float) * n);
    float *y = (float *)malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 97) * 0.25f;
        y[i] = (float)(i % 13) - 6.0f;
    }
    float *dx = to_device(x, n), *dy = to_device(y, n);
    KernelTimer timer;
    timer.start();
    saxpy<<<blocks_for(n), THREADS>>>(n, a, dx, dy);
    timer.stop();
    to_host(y, dy, n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 7 + 1);
    printf("saxpy n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
