/* LU decomposition with partial pivoting, then solving A x = b and checking the residual. */
#include <stdio.h>
#include <math.h>
#include <string.h>

#define N 8

static int lu_factor(double a[N][N], int piv[N])
{
    for (int i = 0; i < N; i++)
        piv[i] = i;
    for (int k = 0; k < N; k++) {
        int p = k;
        double best = fabs(a[k][k]);
        for (int i = k + 1; i < N; i++)
            if (fabs(a[i][k]) > best) {
                best = fabs(a[i][k]);
                p = i;
            }
        if (best == 0.0)
            return -1;
        if (p != k) {
            double tmp[N];
            memcpy(tmp, a[k], sizeof tmp);
            memcpy(a[k], a[p], sizeof tmp);
            memcpy(a[p], tmp, sizeof tmp);
            int t = piv[k];
            piv[k] = piv[p];
            piv[p] = t;
        }
        for (int i = k + 1; i < N; i++) {
            a[i][k] /= a[k][k];
            for (int j = k + 1; j < N; j++)
                a[i][j] -= a[i][k] * a[k][j];
        }
    }
    return 0;
}

static void lu_solve(double lu[N][N], const int piv[N], const double b[N], double x[N])
{
    double y[N];
    for (int i = 0; i < N; i++) {
        double s = b[piv[i]];
        for (int j = 0; j < i; j++)
            s -= lu[i][j] * y[j];
        y[i] = s;
    }
    for (int i = N - 1; i >= 0; i--) {
        double s = y[i];
        for (int j = i + 1; j < N; j++)
            s -= lu[i][j] * x[j];
        x[i] = s / lu[i][i];
    }
}

int main(void)
{
    double a[N][N], orig[N][N], b[N], x[N];
    int piv[N];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            a[i][j] = 1.0 / (i + j + 1) + ((i * 3 + j) % 5 == 0 ? 2.0 : 0.0);
        b[i] = i + 1.0;
    }
    memcpy(orig, a, sizeof a);
    if (lu_factor(a, piv) != 0) {
        puts("singular");
        return 1;
    }
    lu_solve(a, piv, b, x);
    double det = 1.0;
    int swaps = 0;
    for (int i = 0; i < N; i++) {
        det *= a[i][i];
        for (int j = i + 1; j < N; j++)
            if (piv[j] < piv[i])
                swaps++;
    }
    if (swaps % 2)
        det = -det;
    double res = 0.0;
    for (int i = 0; i < N; i++) {
        double s = -b[i];
        for (int j = 0; j < N; j++)
            s += orig[i][j] * x[j];
        res = fmax(res, fabs(s));
    }
    printf("pivots:");
    for (int i = 0; i < N; i++)
        printf(" %d", piv[i]);
    printf("\ndet=%.6g\n", det);
    for (int i = 0; i < N; i++)
        printf("x[%d]=%.6g\n", i, x[i]);
    printf("residual small: %s\n", res < 1e-9 ? "yes" : "no");
    return 0;
}
