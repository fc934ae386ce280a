/* In the shape of OpenMPC's jacobi: Jacobi relaxation of a Laplace problem with fixed hot
 * boundary, iterated until the largest change (a max reduction of fabs) drops below a tolerance
 * or an iteration cap. One `parallel` region per iteration holds both work-sharing loops (new
 * values, then copy-back with the max reduction); arrays are VLA parameters of a helper. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int relax(int n, double a[n][n], double b[n][n], double tol, int maxit, double *last)
{
    int it = 0;
    double change = tol + 1.0;
    while (change > tol && it < maxit) {
        change = 0.0;
#pragma omp parallel
        {
#pragma omp for
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
#pragma omp for reduction(max : change)
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++) {
                    change = fmax(change, fabs(b[i][j] - a[i][j]));
                    a[i][j] = b[i][j];
                }
        }
        it++;
    }
    *last = change;
    return it;
}

int main(void)
{
    int n = 32;
    double (*a)[n] = malloc(n * sizeof *a);
    double (*b)[n] = malloc(n * sizeof *b);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i][j] = (i == 0) ? 100.0 : (j == n - 1) ? 50.0 : 0.0;
            b[i][j] = a[i][j];
        }
    double last;
    int iters = relax(n, a, b, 0.1, 400, &last);
    double sum = 0.0;
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            sum += a[i][j];
    printf("iterations=%d last change=%.6f interior mean=%.6f a[1][1]=%.6f a[16][16]=%.6f\n", iters,
           last, sum / ((n - 2) * (n - 2)), a[1][1], a[n / 2][n / 2]);
    /* a second, tighter solve continuing from the first result */
    iters = relax(n, a, b, 0.04, 400, &last);
    printf("iterations=%d last change=%.6f a[16][16]=%.6f\n", iters, last, a[n / 2][n / 2]);
    free(a);
    free(b);
    return 0;
}
