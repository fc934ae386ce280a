/* Integer operations in kernels: signed division and remainder with negative operands, shifts
 * (arithmetic and logical), char/short/unsigned char conversions and wraparound, 64-bit
 * division by a runtime value, bit tricks and GCC bit builtins. */
#include <stdio.h>
#include <stdint.h>

#define N 4000

int main(void)
{
    static long r[8][N];
    long divisor = 7;
#pragma omp target teams distribute parallel for map(from : r)
    for (int i = 0; i < N; i++) {
        int a = i - 2000, b = (i % 13) - 6;
        if (b == 0)
            b = 3;
        r[0][i] = a / b * 1000 + a % b;
        r[1][i] = (a >> 3) + (int)((unsigned)a >> 28) + (a << 5);
        signed char c = (signed char)(i * 7);
        unsigned char uc = (unsigned char)(i * 13);
        short s = (short)(i * 1000);
        unsigned short us = (unsigned short)(i * 40000u);
        r[2][i] = c + uc * 3 + s + us;
        int64_t big = (int64_t)a * 123456789LL;
        r[3][i] = big / divisor + big % (divisor + i % 5);
        uint64_t ub = (uint64_t)i * 0xDEADBEEFCAFEULL;
        r[4][i] = (long)(ub / 1000003u % 100000u) + (long)(ub % 977u);
        r[5][i] = __builtin_popcount((unsigned)i * 2654435761u) + __builtin_popcountll(ub) * 100;
        r[6][i] = (i ? __builtin_clz((unsigned)i) : 32) + (i ? __builtin_ctz((unsigned)i) : 0) * 64;
        unsigned x = (unsigned)i;
        r[7][i] = ((x << 7) | (x >> 25)) ^ (~x & 0xFFFFu) ^ (x & -x);
    }
    for (int k = 0; k < 8; k++) {
        long s = 0;
        for (int i = 0; i < N; i++)
            s += r[k][i] * (1 + i % 3);
        printf("r%d: sum=%ld first=%ld mid=%ld last=%ld\n", k, s, r[k][0], r[k][N / 2 + 1],
               r[k][N - 1]);
    }
    return 0;
}
