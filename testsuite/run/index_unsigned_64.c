/* Unsigned and 64-bit index arithmetic in kernels: size_t and unsigned loop variables, a long
 * loop over a range above 2^32 (strided), unsigned wraparound, and 64-bit products of indices. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#define N 6000

int main(void)
{
    static uint32_t u[N];
    static int64_t w[N];
#pragma omp target teams distribute parallel for map(from : u, w)
    for (size_t i = 0; i < N; i++) {
        uint32_t x = (uint32_t)i * 2654435761u; /* wraps */
        u[i] = x >> 3;
        w[i] = (int64_t)i * (int64_t)i * 1000003 - (int64_t)(x % 1000);
    }
    uint64_t su = 0;
    int64_t sw = 0;
    for (int i = 0; i < N; i++) {
        su += u[i];
        sw += w[i];
    }
    printf("su=%llu sw=%lld u[1]=%u w[5999]=%lld\n", (unsigned long long)su, (long long)sw, u[1],
           (long long)w[N - 1]);

    /* the iteration variable runs far above 2^32 */
    long long acc = 0;
    const long long start = 5000000000LL, step = 1000003LL;
#pragma omp target teams distribute parallel for reduction(+ : acc)
    for (long long k = start; k < start + step * 5000; k += step)
        acc += k % 1000 + (k >> 32);
    printf("acc=%lld\n", acc);

    /* unsigned loop counting down, unsigned comparisons */
    unsigned cnt = 0;
#pragma omp target teams distribute parallel for reduction(+ : cnt)
    for (unsigned i = 4000u; i > 10u; i--)
        cnt += (i - 4001u) > 100u; /* wraps: always true */
    unsigned long long big = 0;
#pragma omp target map(tofrom : big)
    for (unsigned i = 0; i < 70; i++)
        big = big * 3u + (big >> 61) + i;
    printf("cnt=%u big=%llu\n", cnt, big);
    return 0;
}
