/* MG-like: a two-grid cycle for the 3-D Poisson equation with a 7-point stencil. Residual,
 * weighted-Jacobi smoothing, restriction and prolongation are helpers taking VLA parameters
 * (double u[n][n][n]) and are called on both the fine and the coarse grid, inside a cycle loop.
 * The smoother is a `parallel` region holding two work-sharing loops (a barrier between them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NF 18 /* fine grid points per side, boundaries included */
#define NC 10 /* coarse: (NF - 2) / 2 + 2 */
#define CYCLES 4

/* r = f - A u on the interior, A the 7-point Laplacian scaled by h^-2 = 1 */
static void residual(int n, double r[n][n][n], double u[n][n][n], double f[n][n][n])
{
#pragma omp parallel for collapse(2)
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            for (int k = 1; k < n - 1; k++)
                r[i][j][k] = f[i][j][k] - (6.0 * u[i][j][k] - u[i - 1][j][k] - u[i + 1][j][k] -
                                           u[i][j - 1][k] - u[i][j + 1][k] - u[i][j][k - 1] -
                                           u[i][j][k + 1]);
}

/* sweeps of weighted Jacobi: t = u + w D^-1 (f - A u); u = t */
static void smooth(int n, double u[n][n][n], double f[n][n][n], double t[n][n][n], int sweeps)
{
    for (int s = 0; s < sweeps; s++) {
#pragma omp parallel
        {
#pragma omp for
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    for (int k = 1; k < n - 1; k++) {
                        double au = 6.0 * u[i][j][k] - u[i - 1][j][k] - u[i + 1][j][k] -
                                    u[i][j - 1][k] - u[i][j + 1][k] - u[i][j][k - 1] -
                                    u[i][j][k + 1];
                        t[i][j][k] = u[i][j][k] + (2.0 / 3.0) * (f[i][j][k] - au) / 6.0;
                    }
#pragma omp for
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    for (int k = 1; k < n - 1; k++)
                        u[i][j][k] = t[i][j][k];
        }
    }
}

/* coarse = average of the 2x2x2 fine cells it covers, times 4 (h^2 scaling of the operator) */
static void restrict_grid(int nc, int nf, double c[nc][nc][nc], double f[nf][nf][nf])
{
#pragma omp parallel for collapse(3)
    for (int i = 1; i < nc - 1; i++)
        for (int j = 1; j < nc - 1; j++)
            for (int k = 1; k < nc - 1; k++) {
                double s = 0.0;
                for (int d = 0; d < 8; d++)
                    s += f[2 * i - 1 + (d >> 2)][2 * j - 1 + ((d >> 1) & 1)][2 * k - 1 + (d & 1)];
                c[i][j][k] = 0.5 * s;
            }
}

/* u_fine += piecewise-constant interpolation of the coarse correction */
static void prolong_add(int nc, int nf, double f[nf][nf][nf], double c[nc][nc][nc])
{
#pragma omp parallel for collapse(2)
    for (int i = 1; i < nf - 1; i++)
        for (int j = 1; j < nf - 1; j++)
            for (int k = 1; k < nf - 1; k++)
                f[i][j][k] += c[(i + 1) / 2][(j + 1) / 2][(k + 1) / 2];
}

static double norm2(int n, double a[n][n][n])
{
    double s = 0.0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            for (int k = 1; k < n - 1; k++)
                s += a[i][j][k] * a[i][j][k];
    return sqrt(s);
}

static double max_abs(int n, double a[n][n][n])
{
    double m = 0.0;
#pragma omp parallel for reduction(max : m)
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            for (int k = 1; k < n - 1; k++)
                m = fmax(m, fabs(a[i][j][k]));
    return m;
}

static void zero(int n, double a[n][n][n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                a[i][j][k] = 0.0;
}

int main(void)
{
    double (*u)[NF][NF] = malloc(sizeof(double[NF][NF][NF]));
    double (*f)[NF][NF] = malloc(sizeof(double[NF][NF][NF]));
    double (*r)[NF][NF] = malloc(sizeof(double[NF][NF][NF]));
    double (*t)[NF][NF] = malloc(sizeof(double[NF][NF][NF]));
    double (*uc)[NC][NC] = malloc(sizeof(double[NC][NC][NC]));
    double (*fc)[NC][NC] = malloc(sizeof(double[NC][NC][NC]));
    double (*tc)[NC][NC] = malloc(sizeof(double[NC][NC][NC]));
    zero(NF, u);
    zero(NF, f);
    zero(NF, r);
    zero(NF, t);
    /* point charges of both signs, as in MG's right-hand side */
    for (int c = 0; c < 10; c++) {
        int i = 1 + (c * 7) % (NF - 2), j = 1 + (c * 11 + 3) % (NF - 2);
        int k = 1 + (c * 5 + 1) % (NF - 2);
        f[i][j][k] = c % 2 ? -1.0 : 1.0;
    }
    residual(NF, r, u, f);
    printf("cycle 0 |r|=%.4e max=%.4e\n", norm2(NF, r), max_abs(NF, r));
    for (int cyc = 1; cyc <= CYCLES; cyc++) {
        smooth(NF, u, f, t, 2);
        residual(NF, r, u, f);
        zero(NC, uc);
        zero(NC, tc);
        zero(NC, fc);
        restrict_grid(NC, NF, fc, r);
        smooth(NC, uc, fc, tc, 8);
        prolong_add(NC, NF, u, uc);
        smooth(NF, u, f, t, 2);
        residual(NF, r, u, f);
        printf("cycle %d |r|=%.4e max=%.4e |u|=%.4e\n", cyc, norm2(NF, r), max_abs(NF, r),
               norm2(NF, u));
    }
    free(u);
    free(f);
    free(r);
    free(t);
    free(uc);
    free(fc);
    free(tc);
    return 0;
}
