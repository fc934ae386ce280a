/* In the shape of PolyBench fdtd-2d: 2-D finite-difference time domain. Each time step sets a
 * boundary row from a source array, then updates ey, ex and hz with three parallel loops (the
 * last collapse(2)) on global fixed-size arrays. */
#include <stdio.h>

#define NX 70
#define NY 80
#define TMAX 25

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];

int main(void)
{
    for (int t = 0; t < TMAX; t++)
        fict[t] = (double)t;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = ((double)i * (j + 1)) / NX;
            ey[i][j] = ((double)i * (j + 2)) / NY;
            hz[i][j] = ((double)i * (j + 3)) / NX;
        }
    for (int t = 0; t < TMAX; t++) {
#pragma omp parallel for
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
#pragma omp parallel for
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma omp parallel for
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma omp parallel for collapse(2)
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
    double sx = 0.0, sy = 0.0, sh = 0.0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            sx += ex[i][j];
            sy += ey[i][j];
            sh += hz[i][j];
        }
    printf("sum(ex)=%.6f sum(ey)=%.6f sum(hz)=%.6f hz[30][40]=%.6f\n", sx, sy, sh, hz[30][40]);
    return 0;
}
