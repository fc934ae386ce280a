/* Sieve of Eratosthenes up to 20000: host loop over primes p, a kernel striking the multiples of
 * p (stores of the same value), then a reduction counting primes and summing them. */
#include <stdio.h>

#define LIMIT 20000

static unsigned char composite[LIMIT + 1];

int main(void)
{
#pragma omp target data map(tofrom : composite)
    {
        for (int p = 2; p * p <= LIMIT; p++) {
#pragma omp target update from(composite[p:1])
            if (composite[p])
                continue;
#pragma omp target teams distribute parallel for
            for (int m = p * p; m <= LIMIT; m += p)
                composite[m] = 1;
        }
        long count = 0, sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : count, sum)
        for (int n = 2; n <= LIMIT; n++)
            if (!composite[n]) {
                count++;
                sum += n;
            }
        printf("primes=%ld sum=%ld\n", count, sum);
    }
    int last = LIMIT;
    while (composite[last])
        last--;
    printf("largest=%d composite[9991]=%d\n", last, composite[9991]);
    return 0;
}
