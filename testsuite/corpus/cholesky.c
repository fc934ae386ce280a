/* Cholesky factorization of a symmetric positive definite matrix passed as a pointer to a VLA,
 * followed by forward/back substitution. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static int cholesky(int n, double (*a)[n], double (*l)[n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            l[i][j] = 0.0;
    for (int j = 0; j < n; j++) {
        double d = a[j][j];
        for (int k = 0; k < j; k++)
            d -= l[j][k] * l[j][k];
        if (d <= 0.0)
            return -1;
        l[j][j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double s = a[i][j];
            for (int k = 0; k < j; k++)
                s -= l[i][k] * l[j][k];
            l[i][j] = s / l[j][j];
        }
    }
    return 0;
}

static void solve(int n, double (*l)[n], const double *b, double *x)
{
    double *y = malloc((size_t)n * sizeof *y);
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++)
            s -= l[i][k] * y[k];
        y[i] = s / l[i][i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = y[i];
        for (int k = i + 1; k < n; k++)
            s -= l[k][i] * x[k];
        x[i] = s / l[i][i];
    }
    free(y);
}

int main(void)
{
    enum { N = 10 };
    double (*a)[N] = malloc(sizeof(double[N][N]));
    double (*l)[N] = malloc(sizeof(double[N][N]));
    double b[N], x[N];
    /* tridiagonal-plus-rank-one SPD matrix */
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            a[i][j] = 0.1 * (i + 1) * (j + 1) / N;
        a[i][i] += 4.0;
        if (i > 0)
            a[i][i - 1] -= 1.0;
        if (i + 1 < N)
            a[i][i + 1] -= 1.0;
        b[i] = (double)(i % 3) - 1.0;
    }
    if (cholesky(N, a, l) != 0) {
        puts("not positive definite");
        return 1;
    }
    solve(N, l, b, x);
    double logdet = 0.0, err = 0.0;
    for (int i = 0; i < N; i++)
        logdet += 2.0 * log(l[i][i]);
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < N; j++)
            s += a[i][j] * x[j];
        err = fmax(err, fabs(s - b[i]));
    }
    printf("L[0][0]=%.6g L[%d][%d]=%.6g\n", l[0][0], N - 1, N - 2, l[N - 1][N - 2]);
    printf("log det=%.6g\n", logdet);
    for (int i = 0; i < N; i += 3)
        printf("x[%d]=%.6g\n", i, x[i]);
    printf("residual ok: %d\n", err < 1e-12);
    free(a);
    free(l);
    return 0;
}
