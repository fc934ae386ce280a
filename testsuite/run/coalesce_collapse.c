/* Automatic collapse (issue 16 item 3): a distributed loop of few iterations whose body is a
 * parallel loop, which ompcc runs as collapse(2) at -O2 (a triangular one too, over the
 * bounding box of the inner ranges: more in coalesce_collapse_tri.c), and nests it must leave
 * as written: an inner loop carrying a dependence, one whose iterations would make
 * consecutive threads' accesses farther apart, and a distributed loop of unknown length. */
#include <stdio.h>
#include <stdlib.h>

#define C 6
#define N 300

int main(void)
{
    int n = N;
    double *z = malloc(sizeof(double) * 2 * C * n);
    double *tri = malloc(sizeof(double) * 2 * 16 * 16);
    long *p = malloc(sizeof(long) * 2 * C * n);
    int *q = malloc(sizeof(int) * 8 * n);
    int *r = malloc(sizeof(int) * 2 * n * 4);

    /* fires: complex values stored as (re, im) pairs, 6 rows */
#pragma omp target teams distribute parallel for map(from : z[0:2 * C * n])
    for (int c = 0; c < C; c++)
        for (int i = 0; i < n; i++) {
            z[2 * (c * n + i)] = 0.5 * c + 0.25 * i;
            z[2 * (c * n + i) + 1] = 0.125 * (c - i);
        }
    double s = 0.0;
    for (int k = 0; k < 2 * C * n; k++)
        s += z[k] * (k % 5 + 1);
    printf("collapse: %.3f %.3f %.6f\n", z[2 * (C * n - 1)], z[7], s);

    /* fires: triangular (the inner bound depends on the outer variable) */
#pragma omp target teams distribute parallel for map(from : tri[0:2 * 16 * 16])
    for (int i = 0; i < 16; i++)
        for (int j = 0; j <= i; j++) {
            tri[2 * (i * 16 + j)] = i + 0.5 * j;
            tri[2 * (i * 16 + j) + 1] = i - j;
        }
    s = 0.0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j <= i; j++)
            s += tri[2 * (i * 16 + j)] - tri[2 * (i * 16 + j) + 1];
    printf("triangular: %.3f\n", s);

    /* must not fire: the inner loop carries a dependence */
#pragma omp target teams distribute parallel for map(from : p[0:2 * C * n])
    for (int c = 0; c < C; c++) {
        p[2 * c * n] = c;
        p[2 * c * n + 1] = -c;
    }
#pragma omp target teams distribute parallel for map(tofrom : p[0:2 * C * n])
    for (int c = 0; c < C; c++)
        for (int i = 1; i < n; i++)
            p[2 * (c * n + i)] = p[2 * (c * n + i - 1)] * 3 % 1000003 + i;
    long ls = 0;
    for (int c = 0; c < C; c++)
        ls += p[2 * (c * n + n - 1)];
    printf("carried: %ld %ld\n", p[2 * (n - 1)], ls);

    /* must not fire: consecutive threads would take elements 8 apart */
#pragma omp target teams distribute parallel for map(from : q[0:8 * n])
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < n; j++)
            q[j * 8 + i] = i * 1000 + j;
    long qs = 0;
    for (int k = 0; k < 8 * n; k++)
        qs += (long)q[k] * (k % 7);
    printf("strided: %d %ld\n", q[8 * n - 1], qs);

    /* not considered: the distributed loop's trip count is not a constant */
#pragma omp target teams distribute parallel for map(from : r[0:2 * n * 4])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 4; j++)
            r[2 * (i * 4 + j)] = r[2 * (i * 4 + j) + 1] = i - j;
    long rs = 0;
    for (int k = 0; k < 2 * n * 4; k++)
        rs += r[k] * (k % 3);
    printf("long: %ld\n", rs);

    free(z);
    free(tri);
    free(p);
    free(q);
    free(r);
    return 0;
}
