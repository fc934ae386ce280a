/* A generic-mode teams region: sequential code per team around `distribute parallel for`
 * and `parallel for` loops, team-local arrays, and a team-level result written per block. */
#include <stdio.h>

#define N 8192
#define BLOCKS 32

int main(void)
{
    static double x[N];
    double block_sum[BLOCKS] = {0};
    int block_max[BLOCKS] = {0};
    for (int i = 0; i < N; i++)
        x[i] = (i % 29) * 0.25;
#pragma omp target teams map(tofrom : x, block_sum, block_max)
    {
        /* sequential code before the loop, redundant in every team */
        double factor = 2.0;
        factor += 0.5;
#pragma omp distribute parallel for
        for (int i = 0; i < N; i++)
            x[i] = x[i] * factor + 1.0;
    }
#pragma omp target teams map(tofrom : x, block_sum, block_max)
    {
#pragma omp distribute
        for (int b = 0; b < BLOCKS; b++) {
            int lo = b * (N / BLOCKS), hi = lo + N / BLOCKS;
            double s = 0.0;
#pragma omp parallel for reduction(+ : s)
            for (int i = lo; i < hi; i++)
                s += x[i];
            int m = 0;
#pragma omp parallel for reduction(max : m)
            for (int i = lo; i < hi; i++)
                if ((int)x[i] * (b + 1) > m)
                    m = (int)x[i] * (b + 1);
            block_sum[b] = s; /* sequential code after the loops */
            block_max[b] = m;
        }
    }
    double total = 0.0;
    long mtotal = 0;
    for (int b = 0; b < BLOCKS; b++) {
        total += block_sum[b];
        mtotal += block_max[b];
    }
    printf("total=%.10g mtotal=%ld x[100]=%.6f block_sum[3]=%.6f block_max[31]=%d\n", total,
           mtotal, x[100], block_sum[3], block_max[31]);
    return 0;
}
