/* Jacobi 2-D, 64x64, 20 sweeps inside one `target data` region: the grids stay on the device
 * between the kernels, a max-reduction of the change per sweep comes back as a scalar. */
#include <stdio.h>
#include <math.h>

#define N 64
#define ITERS 20

static double u[N][N], v[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            u[i][j] = v[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
    double change = 0.0;
#pragma omp target data map(tofrom : u) map(to : v)
    {
        for (int it = 0; it < ITERS; it++) {
            change = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max : change)
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < N - 1; j++) {
                    v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
                    change = fmax(change, fabs(v[i][j] - u[i][j]));
                }
#pragma omp target teams distribute parallel for collapse(2)
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < N - 1; j++)
                    u[i][j] = v[i][j];
            if (it % 5 == 4)
                printf("iter %d change=%.10g\n", it + 1, change);
        }
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += u[i][j];
    printf("sum=%.10g u[1][1]=%.10g u[5][9]=%.10g u[32][32]=%.10g\n", sum, u[1][1], u[5][9],
           u[32][32]);
    return 0;
}
