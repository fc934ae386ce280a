/* `declare target to(list)` naming functions and variables declared earlier (instead of a
 * begin/end block), a global array updated per section, and a constant table. */
#include <stdio.h>

#define N 2048

static const int primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
double weights[8];
int calls;

static double weigh(int i)
{
    return weights[i % 8] * primes[i % 10];
}
#pragma omp declare target to(weigh, weights, primes, calls)

int main(void)
{
    for (int k = 0; k < 8; k++)
        weights[k] = 1.0 / (k + 1);
#pragma omp target update to(weights)
    static double out[N];
#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++)
        out[i] = weigh(i);
    double s = 0;
    for (int i = 0; i < N; i++)
        s += out[i];
    printf("s=%.10g out[13]=%.10g\n", s, out[13]);

    /* update only a section of the global array */
    weights[2] = 10.0;
    weights[3] = 20.0;
#pragma omp target update to(weights[2:2])
#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++)
        out[i] = weigh(i);
    s = 0;
    for (int i = 0; i < N; i++)
        s += out[i];
    printf("s=%.10g out[13]=%.10g\n", s, out[13]);

    calls = 0;
#pragma omp target update to(calls)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 100; i++) {
#pragma omp atomic
        calls += i % 2;
    }
#pragma omp target update from(calls)
    printf("calls=%d\n", calls);
    return 0;
}
