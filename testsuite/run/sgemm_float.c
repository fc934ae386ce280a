/* Single-precision gemm, 48x48, with a transposed B accessed row-wise, a `target teams` with
 * thread_limit, and exact small-integer inputs so float sums are exact in any order. */
#include <stdio.h>

#define N 48

static float A[N][N], Bt[N][N], C[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (float)((i + 2 * j) % 9 - 4);
            Bt[j][i] = (float)((3 * i + j) % 7 - 3);
        }
#pragma omp target teams distribute parallel for collapse(2) thread_limit(96) map(to : A, Bt) \
    map(from : C)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float s = 0.0f;
            for (int k = 0; k < N; k++)
                s += A[i][k] * Bt[j][k];
            C[i][j] = s;
        }
    double tr = 0, all = 0;
    long check = 0;
    for (int i = 0; i < N; i++) {
        tr += C[i][i];
        for (int j = 0; j < N; j++) {
            all += C[i][j];
            check += (long)C[i][j] * ((i ^ j) & 7);
        }
    }
    printf("trace=%.1f sum=%.1f check=%ld C[5][40]=%.1f\n", tr, all, check, C[5][40]);
    return 0;
}
