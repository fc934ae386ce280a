/* `target update to/from` with array sections at offsets, of 2-D rows, and of struct arrays,
 * inside one data region; the host only reads what it updated from. */
#include <stdio.h>

#define N 1000
#define R 20
#define C 30

struct cell {
    int id;
    double val;
};

int main(void)
{
    static double a[N];
    static int m[R][C];
    static struct cell cells[64];
    for (int i = 0; i < N; i++)
        a[i] = i;
    for (int i = 0; i < 64; i++)
        cells[i] = (struct cell){i, i * 0.5};
    double seen[4];
#pragma omp target data map(to : a, cells) map(alloc : m)
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            a[i] = a[i] * 2 + 1;
#pragma omp target update from(a[100:10], a[990:10])
        seen[0] = a[105] + a[999];
        for (int i = 500; i < 600; i++)
            a[i] = -1.0;
#pragma omp target update to(a[500:100])
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                m[i][j] = (int)a[i * 50 + j];
#pragma omp target update from(m[5:2])
        seen[1] = m[5][0] + m[6][C - 1];
#pragma omp target update from(m[10:1])
        seen[2] = m[10][3];
#pragma omp target teams distribute parallel for
        for (int i = 0; i < 64; i++)
            cells[i].val += cells[i].id;
#pragma omp target update from(cells[60:4])
        seen[3] = cells[61].val + cells[63].val;
    }
    printf("seen=%.1f %.1f %.1f %.1f\n", seen[0], seen[1], seen[2], seen[3]);
    return 0;
}
