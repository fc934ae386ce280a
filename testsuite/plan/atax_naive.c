/* atax, naive form. PolyBench's atax (DawnCC's evaluation): y = A^T (A x), as two kernels
 * (tmp = A x, then y = A^T tmp), on file-scope fixed-size arrays. Integer data, so every build
 * computes the same bits. Not time-stepped: one run of each kernel.
 *
 * What a new user writes: no map clauses at all; the arrays are mapped implicitly, `tofrom`,
 * on each kernel.
 * A planner should: put both kernels in one data region with `A` and `x` `to` (read-only),
 * `tmp` `alloc` (written by the first kernel, read by the second, never by the host) and `y`
 * `from` only (the host reads it; nothing reads its old value), so the matrix crosses once.
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
    long sum = 0, hash = 0;
    for (int j = 0; j < NY; j++) {
        sum += y[j];
        hash = (hash * 31 + y[j]) % 1000000007;
    }
    printf("atax %dx%d: y sum %ld hash %ld y[0] %ld y[%d] %ld\n", NX, NY, sum, hash, y[0], NY - 1,
           y[NY - 1]);
    return 0;
}
