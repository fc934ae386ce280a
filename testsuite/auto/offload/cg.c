/* In the shape of NPB CG: conjugate-gradient iterations on a sparse symmetric positive definite
 * matrix in CSR form (a shifted 2-D Laplacian with a few long-range couplings). The sparse
 * matrix-vector product, the dot product and the vector updates are helper functions, each
 * called from several places, all on malloc'ed arrays inside the iteration loop. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define GRID 32
#define N (GRID * GRID)
#define MAXNZ 7
#define ITERS 12

static void matvec(int n, const int *rowp, const int *col, const double *val, const double *x,
                   double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = rowp[i]; k < rowp[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* y = a * x + b * y */
static void axpby(int n, double a, const double *x, double b, double *y)
{
#pragma omp parallel for simd
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + b * y[i];
}

static int add_entry(int *col, double *val, int nz, int c, double v)
{
    col[nz] = c;
    val[nz] = v;
    return nz + 1;
}

int main(void)
{
    int *rowp = malloc((N + 1) * sizeof *rowp);
    int *col = malloc(N * MAXNZ * sizeof *col);
    double *val = malloc(N * MAXNZ * sizeof *val);
    double *x = malloc(N * sizeof *x), *b = malloc(N * sizeof *b), *r = malloc(N * sizeof *r);
    double *p = malloc(N * sizeof *p), *q = malloc(N * sizeof *q);
    int nz = 0;
    for (int i = 0; i < N; i++) {
        int gi = i / GRID, gj = i % GRID;
        rowp[i] = nz;
        /* symmetric long-range coupling between i and its mirror N-1-i */
        int m = N - 1 - i;
        if (m != i && i % 5 == 0)
            nz = add_entry(col, val, nz, m, -0.25);
        if (m != i && m % 5 == 0 && i % 5 != 0)
            nz = add_entry(col, val, nz, m, -0.25);
        if (gi > 0)
            nz = add_entry(col, val, nz, i - GRID, -1.0);
        if (gj > 0)
            nz = add_entry(col, val, nz, i - 1, -1.0);
        nz = add_entry(col, val, nz, i, 4.5);
        if (gj < GRID - 1)
            nz = add_entry(col, val, nz, i + 1, -1.0);
        if (gi < GRID - 1)
            nz = add_entry(col, val, nz, i + GRID, -1.0);
    }
    rowp[N] = nz;
    for (int i = 0; i < N; i++) {
        b[i] = 1.0 + (i % 7) * 0.125;
        x[i] = 0.0;
    }
    /* r = b - A x, p = r */
    matvec(N, rowp, col, val, x, q);
    for (int i = 0; i < N; i++) {
        r[i] = b[i];
        p[i] = b[i];
    }
    axpby(N, -1.0, q, 1.0, r);
    axpby(N, 1.0, r, 0.0, p);
    double rr = dot(N, r, r);
    printf("nonzeros=%d initial |r|=%.4e\n", nz, sqrt(rr));
    for (int it = 1; it <= ITERS; it++) {
        matvec(N, rowp, col, val, p, q);
        double alpha = rr / dot(N, p, q);
        axpby(N, alpha, p, 1.0, x);
        axpby(N, -alpha, q, 1.0, r);
        double rr_new = dot(N, r, r);
        double beta = rr_new / rr;
        rr = rr_new;
        axpby(N, 1.0, r, beta, p);
        if (it % 4 == 0)
            printf("iter %2d |r|=%.4e\n", it, sqrt(rr));
    }
    /* true residual of the final iterate, computed from scratch */
    matvec(N, rowp, col, val, x, q);
    axpby(N, 1.0, b, -1.0, q);
    printf("true |b-Ax|=%.4e x.b/b.b=%.6f x[0]=%.6f x[N/2]=%.6f\n", sqrt(dot(N, q, q)),
           dot(N, x, b) / dot(N, b, b), x[0], x[N / 2]);
    free(rowp);
    free(col);
    free(val);
    free(x);
    free(b);
    free(r);
    free(p);
    free(q);
    return 0;
}
