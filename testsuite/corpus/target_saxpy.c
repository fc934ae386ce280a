/* OpenMP offload basics: SAXPY/DAXPY with target teams distribute parallel for and map
 * clauses (to, from, tofrom, array sections), num_teams/thread_limit, scalars passed
 * firstprivate by default, and device-query calls printed only as invariants. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 100000

static void saxpy(int n, float a, const float *x, float *y)
{
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static void daxpy_teams(int n, double a, const double *x, double *y)
{
#pragma omp target teams distribute parallel for num_teams(8) thread_limit(64) \
    map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

int main(void)
{
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    double *dx = malloc(N * sizeof *dx), *dy = malloc(N * sizeof *dy);
    if (!x || !y || !dx || !dy)
        return 1;
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 100) * 0.25f;
        y[i] = 1.0f;
        dx[i] = i * 1e-3;
        dy[i] = -(double)(i % 10);
    }
    saxpy(N, 2.0f, x, y);
    saxpy(N, -0.5f, x, y);
    daxpy_teams(N, 3.0, dx, dy);
    double fs = 0, ds = 0;
    for (int i = 0; i < N; i++) {
        fs += y[i];
        ds += dy[i];
    }
    printf("saxpy: y[0]=%.6g y[99]=%.6g y[N-1]=%.6g sum=%.6g\n", y[0], y[99], y[N - 1], fs);
    printf("daxpy: dy[1]=%.6g dy[12345]=%.6g sum=%.6g\n", dy[1], dy[12345], ds);

    /* map(from:) only: the device writes every element */
    int squares[64];
#pragma omp target map(from : squares)
#pragma omp teams distribute parallel for
    for (int i = 0; i < 64; i++)
        squares[i] = i * i;
    printf("squares[7]=%d squares[63]=%d\n", squares[7], squares[63]);

    /* a scalar is firstprivate by default; write results back through a mapped array */
    int offset = 10, out[4] = {0};
#pragma omp target map(tofrom : out)
    {
        for (int i = 0; i < 4; i++)
            out[i] = offset + i;
        offset = -1; /* private copy: not visible on the host */
    }
    printf("out: %d %d %d %d, offset still %d\n", out[0], out[1], out[2], out[3], offset);

    int ndev = omp_get_num_devices();
    int initial = omp_get_initial_device(); /* -1 or num_devices, depending on the version */
    printf("num_devices >= 0: %d, initial device is not an offload device: %d\n", ndev >= 0,
           initial < 0 || initial >= ndev);
    int teams_ok = 0;
#pragma omp target teams map(tofrom : teams_ok) num_teams(1)
    {
        teams_ok = omp_get_num_teams() >= 1 && omp_get_team_num() == 0;
    }
    printf("teams query consistent: %d\n", teams_ok);
    free(x); free(y); free(dx); free(dy);
    return 0;
}
