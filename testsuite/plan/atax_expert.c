/* atax, expert form: the computation of atax_naive.c with hand-written data movement: one data
 * region around both kernels, `A` and `x` `to`, `tmp` `alloc`, `y` `from`.
 */
#include <stdio.h>

#define NX 320
#define NY 288

static long A[NX][NY], x[NY], y[NY], tmp[NX];

int main(void)
{
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            A[i][j] = (i * 7 + j * 3) % 17 - 8;
    for (int j = 0; j < NY; j++)
        x[j] = j % 11 - 5;
#pragma omp target data map(to : A, x) map(alloc : tmp) map(from : y)
    {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < NX; i++) {
        long s = 0;
        for (int j = 0; j < NY; j++)
            s += A[i][j] * x[j];
        tmp[i] = s;
    }
#pragma omp target teams distribute parallel for
    for (int j = 0; j < NY; j++) {
        long s = 0;
        for (int i = 0; i < NX; i++)
            s += A[i][j] * tmp[i];
        y[j] = s;
    }
    }
    long sum = 0, hash = 0;
    for (int j = 0; j < NY; j++) {
        sum += y[j];
        hash = (hash * 31 + y[j]) % 1000000007;
    }
    printf("atax %dx%d: y sum %ld hash %ld y[0] %ld y[%d] %ld\n", NX, NY, sum, hash, y[0], NY - 1,
           y[NY - 1]);
    return 0;
}
