/* Automatic collapse (issue 16 item 3): a distributed loop of few iterations whose body is a
 * parallel loop, which ompcc runs as collapse(2) at -O2 (triangular nests too, over the
 * bounding box of the inner ranges), and nests it must leave as written: an inner loop
 * carrying a dependence (rectangular and triangular), one whose iterations would make
 * consecutive threads' accesses farther apart, a distributed loop of unknown length, a
 * triangular inner loop with a step of 2 and one whose bounds are not affine. */
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

    /* fires: triangular, counted down from the end to 3 past the diagonal */
    int *up = malloc(sizeof(int) * 2 * 12 * 20);
    for (int k = 0; k < 2 * 12 * 20; k++)
        up[k] = -1;
#pragma omp target teams distribute parallel for map(tofrom : up[0:2 * 12 * 20])
    for (int i = 0; i < 12; i++)
        for (int j = 19; j >= i + 3; j--)
            up[2 * (i * 20 + j)] = i * 100 + j;
    long us = 0;
    for (int k = 0; k < 2 * 12 * 20; k++)
        us += (long)up[k] * (k % 11 + 1);
    printf("upper: %d %d %ld\n", up[2 * 19], up[2 * (11 * 20 + 14)], us);

    /* fires: a band whose rows are empty for i < 6 (j from 6 to i) */
    int *band = malloc(sizeof(int) * 2 * 16 * 16);
    for (int k = 0; k < 2 * 16 * 16; k++)
        band[k] = 0;
#pragma omp target teams distribute parallel for map(tofrom : band[0:2 * 16 * 16])
    for (int i = 0; i < 16; i++)
        for (int j = 6; j < i; j++)
            band[2 * (i * 16 + j)] += i * j + 1;
    long bs = 0;
    for (int k = 0; k < 2 * 16 * 16; k++)
        bs += (long)band[k] * (k % 7 + 1);
    printf("band: %ld\n", bs);

    /* must not fire: triangular, the inner loop carries a dependence */
    int *w = malloc(sizeof(int) * 16 * 16);
    for (int k = 0; k < 16 * 16; k++)
        w[k] = k % 5;
#pragma omp target teams distribute parallel for map(tofrom : w[0:16 * 16])
    for (int i = 0; i < 16; i++)
        for (int j = 1; j <= i; j++)
            w[i * 16 + j] = w[i * 16 + j - 1] * 3 + j;
    long ws = 0;
    for (int k = 0; k < 16 * 16; k++)
        ws += (long)w[k] * (k % 5 + 1);
    printf("tri carried: %ld\n", ws);

    /* must not fire: triangular with a step of 2; bounds not affine in 'i' (the box of rows
     * -4 and 3 would miss row 0's start: neither swapped nor collapsed) */
    int *st = malloc(sizeof(int) * 16 * 64);
    for (int k = 0; k < 16 * 64; k++)
        st[k] = 0;
#pragma omp target teams distribute parallel for map(tofrom : st[0:16 * 64])
    for (int i = 0; i < 16; i++)
        for (int j = i; j < 16; j += 2)
            st[i * 64 + j] = i + 2 * j;
#pragma omp target teams distribute parallel for map(tofrom : st[0:16 * 64])
    for (int i = -4; i < 4; i++)
        for (int j = i * i; j < 20; j++)
            st[(i + 4) * 64 + j] += 7 * i - j;
    long ss = 0;
    for (int k = 0; k < 16 * 64; k++)
        ss += (long)st[k] * (k % 13 + 1);
    printf("tri step/square: %ld\n", ss);

    free(up);
    free(band);
    free(w);
    free(st);
    free(z);
    free(tri);
    free(p);
    free(q);
    free(r);
    return 0;
}
