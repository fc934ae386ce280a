/* `declare target` global variables: a scalar and an array with initializers, read and written
 * by kernels, kept in sync with `target update to/from`, and a device function using them. */
#include <stdio.h>

#define N 1024

#pragma omp declare target
int scale = 3;
double table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
long counter;
static double lookup(int i)
{
    return table[i % 16] * scale;
}
#pragma omp end declare target

int main(void)
{
    static double out[N];
#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++)
        out[i] = lookup(i);
    double s = 0;
    for (int i = 0; i < N; i++)
        s += out[i];
    printf("initial: s=%.6f out[5]=%.6f\n", s, out[5]);

    /* Change the host copies, push them, run again. */
    scale = 5;
    for (int k = 0; k < 16; k++)
        table[k] = 0.5 * k;
#pragma omp target update to(scale, table)
#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++)
        out[i] = lookup(i);
    s = 0;
    for (int i = 0; i < N; i++)
        s += out[i];
    printf("updated: s=%.6f out[5]=%.6f\n", s, out[5]);

    /* The device writes a global; the host sees it only after `update from`. */
    counter = 7;
#pragma omp target update to(counter)
#pragma omp target
    {
        for (int i = 0; i < 100; i++)
            counter += i;
        table[0] = 42.0;
    }
#pragma omp target update from(counter, table[0:1])
    printf("counter=%ld table[0]=%.6f table[1]=%.6f\n", counter, table[0], table[1]);
    return 0;
}
