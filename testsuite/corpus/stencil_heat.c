/* 2D heat equation with a 5-point Jacobi stencil on VLA grids (pointer-to-VLA parameters),
 * parallelized with OpenMP; prints the total heat and the centre temperature. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static void init(int n, int m, double (*g)[m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            g[i][j] = 0.0;
    for (int j = 0; j < m; j++)
        g[0][j] = 100.0; /* hot top edge */
}

static double step(int n, int m, double (*restrict src)[m], double (*restrict dst)[m], double k)
{
    double change = 0.0;
#pragma omp parallel for reduction(max : change)
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++) {
            double v = src[i][j] + k * (src[i - 1][j] + src[i + 1][j] + src[i][j - 1] +
                                        src[i][j + 1] - 4.0 * src[i][j]);
            double d = v > src[i][j] ? v - src[i][j] : src[i][j] - v;
            if (d > change)
                change = d;
            dst[i][j] = v;
        }
    return change;
}

int main(void)
{
    const int n = 40, m = 30;
    double (*a)[m] = malloc(sizeof(double[n][m]));
    double (*b)[m] = malloc(sizeof(double[n][m]));
    if (!a || !b)
        return 1;
    init(n, m, a);
    init(n, m, b);
    int iters = 0;
    double change = 1.0;
    while (change > 1e-3 && iters < 2000) {
        change = step(n, m, a, b, 0.2);
        double (*t)[m] = a;
        a = b;
        b = t;
        iters++;
    }
    double total = 0.0;
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            total += a[i][j];
    printf("iterations: %d\n", iters);
    printf("interior heat: %.6g\n", total);
    printf("centre: %.6g\n", a[n / 2][m / 2]);
    printf("near top: %.6g\n", a[1][m / 2]);
    free(a);
    free(b);
    return 0;
}
