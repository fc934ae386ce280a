// fdtd-2d: TMAX steps of the 2-D finite-difference time-domain kernel on NX x NY fields
// (PolyBench FDTD-2D: four kernels per step over ex, ey, hz).
#include <stdio.h>
#include <stdlib.h>

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

int main(void) {
    int nx = N, ny = N;
    float *ex = malloc(sizeof(float) * nx * ny);
    float *ey = malloc(sizeof(float) * nx * ny);
    float *hz = malloc(sizeof(float) * nx * ny);
    float *fict = malloc(sizeof(float) * TMAX);
    for (int t = 0; t < TMAX; t++)
        fict[t] = (float)t;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            ex[i * ny + j] = ((float)i * (j + 1)) / nx;
            ey[i * ny + j] = ((float)i * (j + 2)) / ny;
            hz[i * ny + j] = ((float)i * (j + 3)) / nx;
        }
#pragma omp target data map(tofrom : ex[0:nx * ny], ey[0:nx * ny], hz[0:nx * ny]) map(to : fict[0:TMAX])
    for (int t = 0; t < TMAX; t++) {
#pragma omp target teams distribute parallel for map(tofrom : ey[0:nx * ny]) map(to : fict[0:TMAX])
        for (int j = 0; j < ny; j++)
            ey[j] = fict[t];
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : ey[0:nx * ny], hz[0:nx * ny])
        for (int i = 1; i < nx; i++)
            for (int j = 0; j < ny; j++)
                ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : ex[0:nx * ny], hz[0:nx * ny])
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++)
                ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
#pragma omp target teams distribute parallel for collapse(2) \
    map(tofrom : ex[0:nx * ny], ey[0:nx * ny], hz[0:nx * ny])
        for (int i = 0; i < nx - 1; i++)
            for (int j = 0; j < ny - 1; j++)
                hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] +
                                                          ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
    double sum = 0.0;
    for (int i = 0; i < nx * ny; i++)
        sum += (ex[i] + 2.0 * ey[i] + 3.0 * hz[i]) * (double)(i % 7 + 1);
    printf("fdtd2d n=%d checksum %.9e\n", nx, sum);
    free(ex);
    free(ey);
    free(hz);
    free(fict);
    return 0;
}
