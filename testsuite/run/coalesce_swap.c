/* Parallel loop swap (issue 16): nests whose distributed loop walks rows while a parallel inner
 * loop walks the contiguous dimension, which ompcc -O2 gives to the threads (2-D, a k-loop
 * inside, 3-D, a directive reduction, continue, a decreasing inner loop, rows much shorter
 * than columns, triangular nests up and down), and nests where it must not: a dependence
 * carried by the inner loop, pointers that may alias, a non-affine write, a triangular inner
 * loop with a step of 2. */
#include <stdio.h>
#include <stdlib.h>

#define N 24
#define M 40

static void scale_rows(double *dst, const double *src, int n, int m)
{
    /* dst and src may alias: the inner loop is not proven parallel */
#pragma omp target teams distribute parallel for map(to : src[0:n * m]) map(from : dst[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            dst[i * m + j] = 2.0 * src[i * m + j] + i;
}

int main(void)
{
    int n = N, m = M;
    long *a = malloc(sizeof(long) * n * m), *b = malloc(sizeof(long) * n * m);
    long *c = malloc(sizeof(long) * n * m);
    long *t = malloc(sizeof(long) * m * n), *g = malloc(sizeof(long) * N * N * N);
    int *perm = malloc(sizeof(int) * n);
    for (int i = 0; i < n * m; i++) {
        a[i] = (i * 7) % 31;
        c[i] = 0;
    }
    for (int i = 0; i < n; i++)
        perm[i] = (i * 5) % n;
    /* 2-D: swapped */
#pragma omp target teams distribute parallel for map(to : a[0:n * m]) map(from : b[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = a[i * m + j] * 3 + i - j;
    /* a k-loop inside (gemm shape: a thread per row): swapped */
#pragma omp target teams distribute parallel for map(to : a[0:n * m]) map(from : t[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            long s = 0;
            for (int k = 0; k < 4; k++)
                s += a[k * m + j] * (i + k);
            t[i * m + j] = s;
        }
    /* 3-D: the innermost loop goes to the threads */
#pragma omp target teams distribute parallel for map(from : g[0:N * N * N])
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                g[(i * N + j) * N + k] = i * 10000 + j * 100 + k;
    /* a reduction of the directive, continue, a decreasing inner loop */
    long sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : a[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = m - 1; j >= 0; j--) {
            if (a[i * m + j] % 3 == 0)
                continue;
            sum += a[i * m + j] * (i + 1);
        }
    /* three rows, many columns: the launch is sized by the inner loop */
#pragma omp target teams distribute parallel for map(tofrom : c[0:n * m])
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < n * m / 3; j++)
            c[i * (n * m / 3) + j] += i + j;
    /* not swapped: the inner loop carries a dependence */
#pragma omp target teams distribute parallel for map(tofrom : a[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = 1; j < m; j++)
            a[i * m + j] = a[i * m + j - 1] + a[i * m + j];
    /* not swapped: a non-affine write */
#pragma omp target teams distribute parallel for map(to : a[0:n * m], perm[0:n]) map(tofrom : c[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            c[perm[i] * m + j] += a[i * m + j];
    /* triangular: the threads take the bounding box of j's ranges (up and down) */
#pragma omp target teams distribute parallel for map(tofrom : b[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            b[i * m + j] = -b[i * m + j];
#pragma omp target teams distribute parallel for map(tofrom : t[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = m - 1; j > i + 5; j--)
            t[i * m + j] -= j;
    /* not swapped: a triangular inner loop with a step of 2 */
#pragma omp target teams distribute parallel for map(to : a[0:n * m]) map(tofrom : c[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = i; j < m; j += 2)
            c[i * m + j] += a[i * m];
    double *x = malloc(sizeof(double) * n * m), *y = malloc(sizeof(double) * n * m);
    for (int i = 0; i < n * m; i++)
        x[i] = i * 0.5;
    scale_rows(y, x, n, m);
    long cs = 0, ts = 0, gs = 0, as = 0, bs = 0;
    for (int i = 0; i < n * m; i++) {
        cs += c[i] * (i % 5 + 1);
        ts += t[i] * (i % 3 + 1);
        as += a[i] * (i % 7 + 1);
        bs += b[i] * (i % 9 + 1);
    }
    for (int i = 0; i < N * N * N; i++)
        gs += g[i] % 1000 * (i % 4 + 1);
    double ys = 0;
    for (int i = 0; i < n * m; i++)
        ys += y[i];
    printf("b=%ld t=%ld g=%ld sum=%ld c=%ld a=%ld y=%.1f\n", bs, ts, gs, sum, cs, as, ys);
    free(a); free(b); free(c); free(t); free(g); free(perm); free(x); free(y);
    return 0;
}
