/* In the shape of Rodinia pathfinder: dynamic programming over the rows of a global integer
 * grid; each row step is a parallel loop over columns taking the cheapest of the three cells
 * above (min through a static helper), ping-ponging between two global result rows. */
#include <stdio.h>

#define ROWS 100
#define COLS 2000

static int wall[ROWS][COLS];
static int rowa[COLS], rowb[COLS];

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

static void step(const int *src, int *dst, const int *w)
{
#pragma omp parallel for schedule(static)
    for (int n = 0; n < COLS; n++) {
        int left = n > 0 ? src[n - 1] : src[n];
        int right = n < COLS - 1 ? src[n + 1] : src[n];
        dst[n] = w[n] + min3(left, src[n], right);
    }
}

int main(void)
{
    unsigned s = 7u;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            s = s * 1664525u + 1013904223u;
            wall[r][c] = (int)((s >> 16) % 10);
        }
    for (int c = 0; c < COLS; c++)
        rowa[c] = wall[0][c];
    for (int r = 1; r < ROWS; r++) {
        if (r % 2)
            step(rowa, rowb, wall[r]);
        else
            step(rowb, rowa, wall[r]);
    }
    const int *last = (ROWS - 1) % 2 ? rowb : rowa;
    long sum = 0;
    int best = last[0], arg = 0;
    for (int c = 0; c < COLS; c++) {
        sum += last[c];
        if (last[c] < best) {
            best = last[c];
            arg = c;
        }
    }
    printf("cheapest path cost %d ending at column %d; sum %ld; last[0]=%d last[1999]=%d\n", best,
           arg, sum, last[0], last[COLS - 1]);
    return 0;
}
