// spmv (CUDA reference of spmv.c): y = A x for a CSR matrix, one thread per row (CSR scalar).
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N (1 << 22)
#else
#define N 20000
#endif
#endif

__global__ void spmv(int n, const int *__restrict__ rowptr, const int *__restrict__ col,
                     const float *__restrict__ val, const float *__restrict__ x,
                     float *__restrict__ y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int e = rowptr[i]; e < rowptr[i + 1]; e++)
            acc += val[e] * x[col[e]];
        y[i] = acc;
    }
}

int main(void) {
    int n = N;
    int *rowptr = (int *)malloc(sizeof(int) * (n + 1));
    int nnz = 0;
    for (int i = 0; i < n; i++)
        nnz += 3 + (i % 9);
    int *col = (int *)malloc(sizeof(int) * nnz);
    float *val = (float *)malloc(sizeof(float) * nnz);
    float *x = (float *)malloc(sizeof(float) * n);
    float *y = (float *)malloc(sizeof(float) * n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        rowptr[i] = k;
        int len = 3 + (i % 9);
        int start = i - len / 2;
        for (int e = 0; e < len; e++) {
            int c = start + e;
            col[k] = c < 0 ? c + n : (c >= n ? c - n : c);
            val[k] = (float)((i + 2 * e) % 17) / 17.0f - 0.5f;
            k++;
        }
        x[i] = (float)(i % 29) / 29.0f;
    }
    rowptr[n] = k;
    int *drowptr = to_device(rowptr, n + 1), *dcol = to_device(col, nnz);
    float *dval = to_device(val, nnz), *dx = to_device(x, n), *dy;
    CHECK(cudaMalloc(&dy, sizeof(float) * n));
    KernelTimer timer;
    timer.start();
    spmv<<<blocks_for(n), THREADS>>>(n, drowptr, dcol, dval, dx, dy);
    timer.stop();
    to_host(y, dy, n);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 7 + 1);
    printf("spmv n=%d nnz=%d checksum %.9e\n", n, nnz, sum);
    timer.report();
    return 0;
}
