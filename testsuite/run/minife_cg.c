/* miniFE-style conjugate gradient on a 1-D Laplacian in CSR form: waxpby, matvec and dot
 * kernels on arrays kept in a target data region, scalars moved by reductions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100

static void waxpby(int n, double a, const double *x, double b, const double *y, double *w)
{
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
        w[i] = a * x[i] + b * y[i];
}

static double dotp(int n, const double *x, const double *y)
{
    double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static void matvec(int n, const int *rp, const int *ci, const double *val, const double *x, double *y)
{
#pragma omp target teams distribute parallel for
    for (int r = 0; r < n; r++) {
        double s = 0;
        for (int k = rp[r]; k < rp[r + 1]; k++)
            s += val[k] * x[ci[k]];
        y[r] = s;
    }
}

int main(void)
{
    int nnz = 3 * N - 2;
    int *rp = malloc(sizeof(int) * (N + 1)), *ci = malloc(sizeof(int) * nnz);
    double *val = malloc(sizeof(double) * nnz);
    double *b = malloc(sizeof(double) * N), *x = calloc(N, sizeof(double));
    double *r = malloc(sizeof(double) * N), *p = malloc(sizeof(double) * N);
    double *Ap = malloc(sizeof(double) * N);
    int k = 0;
    for (int i = 0; i < N; i++) {
        rp[i] = k;
        if (i > 0) { ci[k] = i - 1; val[k++] = -1.0; }
        ci[k] = i; val[k++] = 2.0;
        if (i < N - 1) { ci[k] = i + 1; val[k++] = -1.0; }
        b[i] = (i % 10 == 0) ? 1.0 : 0.0;
    }
    rp[N] = k;
    int iters = 0;
    double rr = 0;
#pragma omp target data map(to : rp[0:N + 1], ci[0:nnz], val[0:nnz], b[0:N]) \
    map(tofrom : x[0:N]) map(alloc : r[0:N], p[0:N], Ap[0:N])
    {
        matvec(N, rp, ci, val, x, Ap);
        waxpby(N, 1.0, b, -1.0, Ap, r);
        waxpby(N, 1.0, r, 0.0, r, p);
        rr = dotp(N, r, r);
        double tol = 1e-20 * rr;
        while (rr > tol && iters < 2 * N) {
            matvec(N, rp, ci, val, p, Ap);
            double alpha = rr / dotp(N, p, Ap);
            waxpby(N, 1.0, x, alpha, p, x);
            waxpby(N, 1.0, r, -alpha, Ap, r);
            double rr_new = dotp(N, r, r);
            waxpby(N, 1.0, r, rr_new / rr, p, p);
            rr = rr_new;
            iters++;
        }
    }
    /* residual check on the host */
    double res = 0;
    for (int i = 0; i < N; i++) {
        double s = 0;
        for (int q = rp[i]; q < rp[i + 1]; q++)
            s += val[q] * x[ci[q]];
        res = fmax(res, fabs(s - b[i]));
    }
    printf("converged=%d small_residual=%d x[0]=%.6f x[50]=%.6f\n", iters <= N, res < 1e-8, x[0], x[50]);
    free(rp); free(ci); free(val); free(b); free(x); free(r); free(p); free(Ap);
    return 0;
}
