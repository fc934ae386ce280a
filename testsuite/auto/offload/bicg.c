/* In the shape of PolyBench bicg: s = A^T r and q = A p, the BiCG sub-kernel, in a helper
 * taking VLA parameters (double a[n][m]); the q loop is a parallel loop over rows, the s loop a
 * parallel loop over columns. Called twice with different vectors. */
#include <stdio.h>
#include <stdlib.h>

static void bicg(int n, int m, double a[n][m], double s[m], double q[n], double p[m],
                 double r[n])
{
#pragma omp parallel for
    for (int j = 0; j < m; j++) {
        double acc = 0.0;
        for (int i = 0; i < n; i++)
            acc += r[i] * a[i][j];
        s[j] = acc;
    }
#pragma omp parallel for schedule(guided)
    for (int i = 0; i < n; i++) {
        double acc = 0.0;
        for (int j = 0; j < m; j++)
            acc += a[i][j] * p[j];
        q[i] = acc;
    }
}

static double weighted_sum(int n, const double *v)
{
    double t = 0.0;
    for (int i = 0; i < n; i++)
        t += v[i] * (i % 7 + 1);
    return t;
}

int main(void)
{
    enum { N = 210, M = 190 };
    double (*a)[M] = malloc(N * sizeof *a);
    double *s = malloc(M * sizeof *s), *q = malloc(N * sizeof *q);
    double *p = malloc(M * sizeof *p), *r = malloc(N * sizeof *r);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = ((i * (j + 1)) % N) / 64.0;
    for (int j = 0; j < M; j++)
        p[j] = (j % 9) / 4.0;
    for (int i = 0; i < N; i++)
        r[i] = (i % 11) / 8.0;
    bicg(N, M, a, s, q, p, r);
    printf("pass 1: sum(s)=%.6f sum(q)=%.6f s[5]=%.6f q[100]=%.6f\n", weighted_sum(M, s),
           weighted_sum(N, q), s[5], q[100]);
    for (int j = 0; j < M; j++)
        p[j] = s[j] / 1024.0;
    for (int i = 0; i < N; i++)
        r[i] = q[i] / 1024.0;
    bicg(N, M, a, s, q, p, r);
    printf("pass 2: sum(s)=%.6f sum(q)=%.6f s[5]=%.6f q[100]=%.6f\n", weighted_sum(M, s),
           weighted_sum(N, q), s[5], q[100]);
    free(a);
    free(s);
    free(q);
    free(p);
    free(r);
    return 0;
}
