/* Triangular automatic collapse (issue 16 item 3): a distributed loop of few iterations whose
 * inner loop's bounds are affine in its variable (step 1 or -1), which ompcc runs at -O2 as
 * collapse(2) over the bounding box of the inner ranges, each thread checking its row's
 * range; and triangular nests it must leave as written: a dependence carried by the inner
 * loop, a step of 2, bounds not affine. coalesce_collapse.c has the rectangular cases. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
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
    return 0;
}
