// triad (CUDA reference of triad.c): STREAM triad a = b + s*c, REPS launches.
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N (1 << 25)
#else
#define N 100000
#endif
#endif
#ifndef REPS
#define REPS 2
#endif

__global__ void triad(int n, double s, double *__restrict__ a, const double *__restrict__ b,
                      const double *__restrict__ c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}

int main(void) {
    int n = N;
    double s = 3.0;
    double *a = (double *)malloc(sizeof(double) * n);
    double *b = (double *)malloc(sizeof(double) * n);
    double *c = (double *)malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 101) * 0.5;
        c[i] = (double)(i % 11) - 5.0;
    }
    double *da = to_device(a, n), *db = to_device(b, n), *dc = to_device(c, n);
    KernelTimer timer;
    for (int r = 0; r < REPS; r++) {
        timer.start();
        triad<<<blocks_for(n), THREADS>>>(n, s, da, db, dc);
        timer.stop();
    }
    to_host(a, da, n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += a[i] * (double)(i % 5 + 1);
    printf("triad n=%d checksum %.9e\n", n, sum);
    timer.report();
    return 0;
}
