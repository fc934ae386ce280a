/* bicg, naive form. PolyBench's bicg (DawnCC's evaluation), the two products of BiCGStab:
 * s = A^T r and q = A p, as two kernels, on fixed-size arrays local to main (static storage).
 * Integer data, so every build computes the same bits. Not time-stepped: one run of each
 * kernel.
 *
 * What a new user writes: no map clauses; each kernel maps the arrays it names implicitly,
 * `tofrom`.
 * A planner should: put both kernels in one data region, `A`, `r` and `p` `to` (read-only),
 * `s` and `q` `from` only (written by the kernels, read by the host afterwards, their old
 * values never read), so the matrix crosses once instead of four times.
 */
#include <stdio.h>

#define N 288
#define M 320

int main(void)
{
    static long A[N][M], r[N], s[M], p[M], q[N];
    for (int i = 0; i < N; i++) {
        r[i] = i % 9 - 4;
        for (int j = 0; j < M; j++)
            A[i][j] = (i * 5 + j * 11) % 19 - 9;
    }
    for (int j = 0; j < M; j++)
        p[j] = j % 7 - 3;
#pragma omp target teams distribute parallel for
    for (int j = 0; j < M; j++) {
        long acc = 0;
        for (int i = 0; i < N; i++)
            acc += r[i] * A[i][j];
        s[j] = acc;
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
        long acc = 0;
        for (int j = 0; j < M; j++)
            acc += A[i][j] * p[j];
        q[i] = acc;
    }
    long ssum = 0, qsum = 0, hash = 0;
    for (int j = 0; j < M; j++) {
        ssum += s[j];
        hash = (hash * 31 + s[j]) % 1000000007;
    }
    for (int i = 0; i < N; i++) {
        qsum += q[i];
        hash = (hash * 31 + q[i]) % 1000000007;
    }
    printf("bicg %dx%d: s sum %ld q sum %ld hash %ld\n", N, M, ssum, qsum, hash);
    return 0;
}
