/* nw, expert form: the computation of nw_naive.c with hand-written data movement: one data
 * region around both diagonal loops, `ref` `to`, `score` `tofrom`; the kernels inside move
 * nothing.
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define BS 16
#define NB 16
#define N (BS * NB)
#define W (N + 1)
#define PENALTY 10

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

int main(void)
{
    int *score = malloc(W * W * sizeof *score), *ref = malloc(W * W * sizeof *ref);
    for (int i = 0; i < W; i++)
        for (int j = 0; j < W; j++) {
            int a = (i * 7 + 3) % 23, b = (j * 11 + 5) % 23;
            ref[i * W + j] = a == b ? 5 : (a + b) % 7 - 4; /* a made-up substitution table */
            score[i * W + j] = 0;
        }
    for (int i = 0; i < W; i++) {
        score[i * W] = -i * PENALTY;
        score[i] = -i * PENALTY;
    }
    /* Upper-left triangle of blocks (diagonal d holds blocks (d - k, k)), then lower-right. */
#pragma omp target data map(to : ref[0:W * W]) map(tofrom : score[0:W * W])
    {
        for (int d = 0; d < NB; d++) {
#pragma omp target teams distribute parallel for
            for (int k = 0; k <= d; k++) {
                int bi = d - k, bj = k;
                for (int i = bi * BS + 1; i <= bi * BS + BS; i++)
                    for (int j = bj * BS + 1; j <= bj * BS + BS; j++)
                        score[i * W + j] = max3(score[(i - 1) * W + j - 1] + ref[i * W + j],
                                                score[i * W + j - 1] - PENALTY,
                                                score[(i - 1) * W + j] - PENALTY);
            }
        }
        for (int d = NB; d < 2 * NB - 1; d++) {
#pragma omp target teams distribute parallel for
            for (int k = d - NB + 1; k < NB; k++) {
                int bi = d - k, bj = k;
                for (int i = bi * BS + 1; i <= bi * BS + BS; i++)
                    for (int j = bj * BS + 1; j <= bj * BS + BS; j++)
                        score[i * W + j] = max3(score[(i - 1) * W + j - 1] + ref[i * W + j],
                                                score[i * W + j - 1] - PENALTY,
                                                score[(i - 1) * W + j] - PENALTY);
            }
        }
    }
    /* Traceback on the host from the bottom-right corner. */
    int i = N, j = N, steps = 0, diag = 0;
    long path = 0;
    while (i > 0 && j > 0) {
        int here = score[i * W + j];
        if (here == score[(i - 1) * W + j - 1] + ref[i * W + j]) {
            i--;
            j--;
            diag++;
        } else if (here == score[i * W + j - 1] - PENALTY) {
            j--;
        } else {
            i--;
        }
        path = (path * 131 + here) % 1000000007;
        steps++;
    }
    long total = 0;
    for (int k = 0; k < W * W; k++)
        total += score[k];
    printf("nw %dx%d: score %d path steps %d diagonal %d hash %ld matrix sum %ld\n", N, N,
           score[N * W + N], steps, diag, path, total);
    free(score);
    free(ref);
    return 0;
}
