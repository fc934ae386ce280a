/* fdtd-2d (PolyBench shape): ex, ey, hz fields on 60x80, 12 time steps, four kernels per step,
 * the source row updated from a firstprivate array indexed by the step. */
#include <stdio.h>

#define NX 60
#define NY 80
#define TMAX 12

static double ex[NX][NY], ey[NX][NY], hz[NX][NY];

int main(void)
{
    double fict[TMAX];
    for (int t = 0; t < TMAX; t++)
        fict[t] = (double)t;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = ((double)i * (j + 1)) / NX;
            ey[i][j] = ((double)i * (j + 2)) / NY;
            hz[i][j] = ((double)i * (j + 3)) / NX;
        }
#pragma omp target data map(tofrom : ex, ey, hz) map(to : fict)
    for (int t = 0; t < TMAX; t++) {
#pragma omp target teams distribute parallel for
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
    double sx = 0, sy = 0, sh = 0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            sx += ex[i][j];
            sy += ey[i][j];
            sh += hz[i][j];
        }
    printf("ex=%.10g ey=%.10g hz=%.10g hz[30][40]=%.10g\n", sx, sy, sh, hz[30][40]);
    return 0;
}
