/* gemm, naive form. PolyBench's gemm (DawnCC's evaluation): C = alpha A B + beta C on heap
 * matrices through pointers to rows (`long (*A)[N]`), one kernel. Integer data, so every build
 * computes the same bits. Not time-stepped.
 *
 * What a new user writes: all three matrices mapped `tofrom`.
 * A planner should: map `A` and `B` `to` only (the kernel only reads them; the host reads them
 * afterwards, but its copy is still valid) and keep `C` `tofrom` (read, written, and read by
 * the host afterwards): 4 matrix copies instead of 6.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 128

int main(void)
{
    long (*A)[N] = malloc(N * sizeof *A), (*B)[N] = malloc(N * sizeof *B);
    long (*C)[N] = malloc(N * sizeof *C);
    long alpha = 3, beta = -2;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (i * 3 + j) % 13 - 6;
            B[i][j] = (i + j * 5) % 11 - 5;
            C[i][j] = (i * j) % 7;
        }
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : A[0:N], B[0:N], C[0:N])
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            long s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = alpha * s + beta * C[i][j];
        }
    long sum = 0, hash = 0, trace = 0;
    for (int i = 0; i < N; i++) {
        trace += A[i][i] + B[i][i];
        for (int j = 0; j < N; j++) {
            sum += C[i][j];
            hash = (hash * 31 + C[i][j]) % 1000000007;
        }
    }
    printf("gemm %dx%d: C sum %ld hash %ld C[1][2] %ld inputs trace %ld\n", N, N, sum, hash, C[1][2],
           trace);
    free(A);
    free(B);
    free(C);
    return 0;
}
