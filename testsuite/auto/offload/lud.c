/* In the shape of Rodinia lud (OpenMP version): in-place LU decomposition without pivoting of a
 * diagonally dominant matrix held through a pointer to a VLA, double (*a)[n] = malloc(...). For
 * each step two parallel loops: the row of U, then the column of L (which divides by the
 * pivot). A check multiplies L and U back (collapse(2)) and reports the largest error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void lud(int n, double (*a)[n])
{
    for (int i = 0; i < n; i++) {
#pragma omp parallel for schedule(static)
        for (int j = i; j < n; j++) {
            double sum = a[i][j];
            for (int k = 0; k < i; k++)
                sum -= a[i][k] * a[k][j];
            a[i][j] = sum;
        }
#pragma omp parallel for schedule(static)
        for (int j = i + 1; j < n; j++) {
            double sum = a[j][i];
            for (int k = 0; k < i; k++)
                sum -= a[j][k] * a[k][i];
            a[j][i] = sum / a[i][i];
        }
    }
}

int main(void)
{
    int n = 72;
    double (*a)[n] = malloc(n * sizeof *a);
    double (*orig)[n] = malloc(n * sizeof *orig);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i][j] = i == j ? n + 1.0 : ((i * 13 + j * 7) % 11 - 5) / 8.0;
            orig[i][j] = a[i][j];
        }
    lud(n, a);
    double maxerr = 0.0;
#pragma omp parallel for collapse(2) reduction(max : maxerr)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            int m = i < j ? i : j;
            for (int k = 0; k <= m; k++)
                s += (k == i ? 1.0 : a[i][k]) * a[k][j];
            maxerr = fmax(maxerr, fabs(s - orig[i][j]));
        }
    double logdet = 0.0, sum_l = 0.0;
    for (int i = 0; i < n; i++) {
        logdet += log(fabs(a[i][i]));
        for (int j = 0; j < i; j++)
            sum_l += a[i][j];
    }
    printf("n=%d log|det|=%.6f sum(L)=%.6f U[0][5]=%.6f U[70][71]=%.6f reconstruction ok=%d\n", n,
           logdet, sum_l, a[0][5], a[70][71], maxerr < 1e-10);
    free(a);
    free(orig);
    return 0;
}
