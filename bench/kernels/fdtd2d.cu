// fdtd2d (CUDA reference of fdtd2d.c): TMAX steps of four kernels over ex, ey, hz, one thread
// per point on a 2-D grid (x walks j, the contiguous index).
#include "cuda_bench.h"

#ifndef N
#ifdef LARGE
#define N 4096
#else
#define N 128
#endif
#endif
#ifndef TMAX
#define TMAX 4
#endif

__global__ void boundary(int ny, float *__restrict__ ey, const float *__restrict__ fict, int t) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny)
        ey[j] = fict[t];
}

__global__ void update_ey(int nx, int ny, float *__restrict__ ey, const float *__restrict__ hz) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < nx && j < ny)
        ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

__global__ void update_ex(int nx, int ny, float *__restrict__ ex, const float *__restrict__ hz) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny)
        ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

__global__ void update_hz(int nx, int ny, const float *__restrict__ ex,
                          const float *__restrict__ ey, float *__restrict__ hz) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx - 1 && j < ny - 1)
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] +
                                                  ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

int main(void) {
    int nx = N, ny = N;
    float *ex = (float *)malloc(sizeof(float) * nx * ny);
    float *ey = (float *)malloc(sizeof(float) * nx * ny);
    float *hz = (float *)malloc(sizeof(float) * nx * ny);
    float *fict = (float *)malloc(sizeof(float) * TMAX);
    for (int t = 0; t < TMAX; t++)
        fict[t] = (float)t;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            ex[i * ny + j] = ((float)i * (j + 1)) / nx;
            ey[i * ny + j] = ((float)i * (j + 2)) / ny;
            hz[i * ny + j] = ((float)i * (j + 3)) / nx;
        }
    size_t cells = (size_t)nx * ny;
    float *dex = to_device(ex, cells), *dey = to_device(ey, cells), *dhz = to_device(hz, cells);
    float *dfict = to_device(fict, TMAX);
    dim3 block(32, 8);
    dim3 grid_ey((ny + 31) / 32, (nx - 1 + 7) / 8), grid_ex((ny - 1 + 31) / 32, (nx + 7) / 8);
    dim3 grid_hz((ny - 1 + 31) / 32, (nx - 1 + 7) / 8);
    KernelTimer timer;
    for (int t = 0; t < TMAX; t++) {
        timer.start();
        boundary<<<blocks_for(ny), THREADS>>>(ny, dey, dfict, t);
        timer.stop();
        timer.start();
        update_ey<<<grid_ey, block>>>(nx, ny, dey, dhz);
        timer.stop();
        timer.start();
        update_ex<<<grid_ex, block>>>(nx, ny, dex, dhz);
        timer.stop();
        timer.start();
        update_hz<<<grid_hz, block>>>(nx, ny, dex, dey, dhz);
        timer.stop();
    }
    to_host(ex, dex, cells);
    to_host(ey, dey, cells);
    to_host(hz, dhz, cells);
    double sum = 0.0;
    for (int i = 0; i < nx * ny; i++)
        sum += (ex[i] + 2.0 * ey[i] + 3.0 * hz[i]) * (double)(i % 7 + 1);
    printf("fdtd2d n=%d checksum %.9e\n", nx, sum);
    timer.report();
    return 0;
}
