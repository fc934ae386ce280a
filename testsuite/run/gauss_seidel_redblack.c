/* Red-black Gauss-Seidel on a 64x64 Poisson problem: two kernels per sweep (red cells, then
 * black cells, each reading only the other colour), 25 sweeps in a data region, residual at end. */
#include <stdio.h>
#include <math.h>

#define N 64
#define SWEEPS 25

static double u[N][N], f[N][N];

int main(void)
{
    const double h2 = 1.0 / ((N - 1) * (N - 1));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            u[i][j] = 0.0;
            f[i][j] = (i > N / 4 && i < N / 2 && j > N / 3 && j < 2 * N / 3) ? 1.0 : 0.0;
        }
#pragma omp target data map(tofrom : u) map(to : f)
    for (int s = 0; s < SWEEPS; s++)
        for (int color = 0; color < 2; color++) {
#pragma omp target teams distribute parallel for collapse(2)
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < N - 1; j++)
                    if ((i + j) % 2 == color)
                        u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] +
                                          h2 * f[i][j]);
        }
    double res = 0.0, sum = 0.0;
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) {
            double r = 4 * u[i][j] - u[i - 1][j] - u[i + 1][j] - u[i][j - 1] - u[i][j + 1] -
                       h2 * f[i][j];
            res = fmax(res, fabs(r));
            sum += u[i][j];
        }
    printf("sum=%.10g residual=%.6e u[20][30]=%.10g\n", sum, res, u[20][30]);
    return 0;
}
