/* Reductions with every operator on int: + * - min max & | ^ && ||, each over 10000 iterations
 * (the product over a short range so it stays exact), in separate and combined constructs. */
#include <stdio.h>
#include <limits.h>

#define N 10000

int main(void)
{
    int sum = 0, diff = 0, prod = 1, lo = INT_MAX, hi = INT_MIN;
    int band = -1, bor = 0, bxor = 0, land = 1, lor = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) reduction(- : diff)
    for (int i = 0; i < N; i++) {
        sum += i % 97;
        diff -= i % 13;
    }
#pragma omp target teams distribute parallel for reduction(* : prod)
    for (int i = 1; i <= 12; i++)
        prod *= i;
#pragma omp target teams distribute parallel for reduction(min : lo) reduction(max : hi)
    for (int i = 0; i < N; i++) {
        int v = (i * 7919) % 10007 - 5000;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
#pragma omp target teams distribute parallel for reduction(& : band) reduction(| : bor) \
    reduction(^ : bxor)
    for (int i = 0; i < N; i++) {
        band &= ~(1 << (i % 20)) | 0x100000;
        bor |= 1 << (i % 23);
        bxor ^= i * 2654435761u >> 7;
    }
#pragma omp target teams distribute parallel for reduction(&& : land) reduction(|| : lor)
    for (int i = 0; i < N; i++) {
        land = land && (i % 5000 != 4999 || i < 9000);
        lor = lor || (i == 6543);
    }
    printf("sum=%d diff=%d prod=%d\n", sum, diff, prod);
    printf("min=%d max=%d\n", lo, hi);
    printf("and=%d or=%d xor=%d\n", band, bor, bxor);
    printf("land=%d lor=%d\n", land, lor);
    int none = 1;
#pragma omp target teams distribute parallel for reduction(&& : none)
    for (int i = 0; i < N; i++)
        none = none && (i != 123);
    printf("land2=%d\n", none);
    return 0;
}
