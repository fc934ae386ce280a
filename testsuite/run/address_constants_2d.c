/* Address constants into arrays of arrays and struct array members in declare-target
 * initializers (`&g[5][0]`, `g[1]`, `s.arr`, `*g`): csmith writes these in most programs. */
#include <stdio.h>

#pragma omp declare target
static int g[8][4];
static struct {
    int pad;
    int arr[6];
} s = {1, {10, 11, 12, 13, 14, 15}};
static int *p = &g[5][0];
static int *q = g[1];
static int *r = s.arr;
static int *t = *g;
static int *u = &g[2][3];
static int (*row)[4] = &g[3];
#pragma omp end declare target

int main(void)
{
    int out[6] = {0};
#pragma omp target map(from : out)
    {
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 4; j++)
                g[i][j] = i * 10 + j;
        out[0] = *p;
        out[1] = q[2];
        out[2] = r[3];
        out[3] = t[1];
        out[4] = *u;
        out[5] = (*row)[1];
    }
    for (int i = 0; i < 6; i++)
        printf("out[%d]=%d\n", i, out[i]);
    return 0;
}
