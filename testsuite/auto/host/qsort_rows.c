/* Must stay on the host: each iteration sorts one row with the C library's qsort (a host-only
 * function that also calls back through a function pointer). Rows are independent, so the
 * result is deterministic. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 200
#define COLS 40

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static int m[ROWS][COLS];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            m[r][c] = (r * 131 + c * 977 + r * c * 7) % 1000;
#pragma omp parallel for schedule(dynamic, 4)
    for (int r = 0; r < ROWS; r++)
        qsort(m[r], COLS, sizeof m[r][0], cmp_int);
    long medians = 0;
    int unsorted = 0;
    for (int r = 0; r < ROWS; r++) {
        medians += m[r][COLS / 2];
        for (int c = 1; c < COLS; c++)
            unsorted += m[r][c - 1] > m[r][c];
    }
    printf("sum of medians=%ld out-of-order=%d m[0][0]=%d m[199][39]=%d\n", medians, unsorted,
           m[0][0], m[ROWS - 1][COLS - 1]);
    return 0;
}
