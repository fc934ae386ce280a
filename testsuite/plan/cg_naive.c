/* cg, naive form. The conjugate-gradient solver OpenMPC evaluates (NAS CG's structure): each
 * iteration is a sparse matrix-vector product (CSR), two dot products and three vector
 * updates, with the host computing alpha, beta and the convergence test between the kernels.
 * The system is the 5-point Laplacian on a G x G grid; vectors are fixed point (SCALE = 2^20,
 * products rescaled per element), so every build computes the same bits whatever the order of
 * the reductions. Time-stepped: up to ITERS = 20 iterations of five kernels.
 *
 * What a new user writes: every kernel maps every array it touches `tofrom` (the matrix too).
 * A planner should: hoist everything out of the iteration loop into one data region: the
 * matrix (`rowp`, `col`, `val`) `to` only; `r` and `p` `to` (the host initialized them) and
 * never back (the host does not read them after the loop); `q` `alloc` (device-only); `x`
 * `to` and `from` once (the host reads it after the loop, line 90). Per
 * iteration only the reduction values move (the host reads them at lines 65 and
 * 77); alpha and beta reach the kernels as firstprivate scalars.
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define G 64
#define N (G * G)
#define ITERS 20
#define SCALE 1048576L

int main(void)
{
    int *rowp = malloc((N + 1) * sizeof *rowp), *col = malloc(5 * N * sizeof *col);
    int *val = malloc(5 * N * sizeof *val);
    long *x = malloc(N * sizeof *x), *r = malloc(N * sizeof *r), *p = malloc(N * sizeof *p);
    long *q = malloc(N * sizeof *q), *b = malloc(N * sizeof *b);
    int nnz = 0;
    for (int i = 0; i < N; i++) {
        int gi = i / G, gj = i % G;
        rowp[i] = nnz;
        if (gi > 0) { col[nnz] = i - G; val[nnz++] = -1; }
        if (gj > 0) { col[nnz] = i - 1; val[nnz++] = -1; }
        col[nnz] = i;
        val[nnz++] = 4;
        if (gj < G - 1) { col[nnz] = i + 1; val[nnz++] = -1; }
        if (gi < G - 1) { col[nnz] = i + G; val[nnz++] = -1; }
        b[i] = ((i * 37) % 101 - 50) * SCALE / 64;
        x[i] = 0;
        r[i] = b[i];
        p[i] = b[i];
        q[i] = 0;
    }
    rowp[N] = nnz;
    long rho = 0;
    for (int i = 0; i < N; i++)
        rho += r[i] * r[i] / SCALE;
    printf("cg n %d nnz %d rho0 %ld\n", N, nnz, rho);
    int it;
    for (it = 0; it < ITERS && rho > 0; it++) {
#pragma omp target teams distribute parallel for map(tofrom : rowp[0:N + 1], col[0:5 * N], val[0:5 * N], p[0:N], q[0:N])
        for (int i = 0; i < N; i++) {
            long s = 0;
            for (int k = rowp[i]; k < rowp[i + 1]; k++)
                s += val[k] * p[col[k]];
            q[i] = s;
        }
        long pq = 0;
#pragma omp target teams distribute parallel for reduction(+ : pq) map(tofrom : p[0:N], q[0:N])
        for (int i = 0; i < N; i++)
            pq += p[i] * q[i] / SCALE;
        if (pq <= 0)
            break;
        long alpha = rho * SCALE / pq;
#pragma omp target teams distribute parallel for map(tofrom : x[0:N], r[0:N], p[0:N], q[0:N])
        for (int i = 0; i < N; i++) {
            x[i] += alpha * p[i] / SCALE;
            r[i] -= alpha * q[i] / SCALE;
        }
        long rho_new = 0;
#pragma omp target teams distribute parallel for reduction(+ : rho_new) map(tofrom : r[0:N])
        for (int i = 0; i < N; i++)
            rho_new += r[i] * r[i] / SCALE;
        long beta = rho_new * SCALE / rho;
        rho = rho_new;
#pragma omp target teams distribute parallel for map(tofrom : r[0:N], p[0:N])
        for (int i = 0; i < N; i++)
            p[i] = r[i] + beta * p[i] / SCALE;
        if ((it + 1) % 5 == 0)
            printf("iteration %d rho %ld alpha %ld beta %ld\n", it + 1, rho, alpha, beta);
    }
    /* The true residual on the host, from the matrix and x. */
    long res = 0, xsum = 0, hash = 0;
    for (int i = 0; i < N; i++) {
        long ax = 0;
        for (int k = rowp[i]; k < rowp[i + 1]; k++)
            ax += val[k] * x[col[k]];
        long d = b[i] - ax;
        res += d * d / SCALE;
        xsum += x[i];
        hash = (hash * 31 + x[i]) % 1000000007;
    }
    printf("cg iterations %d: residual %ld x sum %ld hash %ld\n", it, res, xsum, hash);
    free(rowp);
    free(col);
    free(val);
    free(x);
    free(r);
    free(p);
    free(q);
    free(b);
    return 0;
}
