/* Reductions with every operator on long (64-bit): values above 2^32 so a 32-bit reduction
 * would be caught. */
#include <stdio.h>
#include <limits.h>

#define N 10000

int main(void)
{
    long sum = 0, diff = 0, prod = 1, lo = LONG_MAX, hi = LONG_MIN;
    long band = -1, bor = 0, bxor = 0;
    long land = 1, lor = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) reduction(- : diff)
    for (long i = 0; i < N; i++) {
        sum += i * 1000003L;
        diff -= (i % 11) << 33;
    }
#pragma omp target teams distribute parallel for reduction(* : prod)
    for (int i = 1; i <= 20; i++)
        prod *= i;
#pragma omp target teams distribute parallel for reduction(min : lo) reduction(max : hi)
    for (long i = 0; i < N; i++) {
        long v = (i * 48271L) % 2147483647L * 4099L - (1L << 40);
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
    }
#pragma omp target teams distribute parallel for reduction(& : band) reduction(| : bor) \
    reduction(^ : bxor)
    for (long i = 0; i < N; i++) {
        unsigned long h = (unsigned long)i * 0x9E3779B97F4A7C15UL;
        band &= (long)(h | 0xF000000000000001UL);
        bor |= 1L << (i % 61);
        bxor ^= (long)(h >> 3);
    }
#pragma omp target teams distribute parallel for reduction(&& : land) reduction(|| : lor)
    for (long i = 0; i < N; i++) {
        land = land && (i >= 0);
        lor = lor || (i * i == 81L * 81L);
    }
    printf("sum=%ld diff=%ld prod=%ld\n", sum, diff, prod);
    printf("min=%ld max=%ld\n", lo, hi);
    printf("and=%ld or=%ld xor=%ld\n", band, bor, bxor);
    printf("land=%ld lor=%ld\n", land, lor);
    return 0;
}
