/* Reduction variables without map clauses on combined constructs (implicitly map(tofrom)),
 * accumulating into the same host scalar across several kernels, in a function called twice,
 * and a reduction on a target parallel for with an initial host value. */
#include <stdio.h>

#define N 5000

static long total_of(const int *v, int n)
{
    long t = 100;
#pragma omp target teams distribute parallel for reduction(+ : t) map(to : v[0:n])
    for (int i = 0; i < n; i++)
        t += v[i];
    return t;
}

int main(void)
{
    static int v[N];
    for (int i = 0; i < N; i++)
        v[i] = i % 21 - 10;
    double acc = 1.0;
    for (int pass = 1; pass <= 3; pass++) {
#pragma omp target teams distribute parallel for reduction(+ : acc)
        for (int i = 0; i < N; i++)
            acc += 0.001 * pass * (i % 4);
    }
    long t1 = total_of(v, N), t2 = total_of(v + 10, N - 10);
    int mx = -1000;
#pragma omp target parallel for reduction(max : mx)
    for (int i = 0; i < N; i++)
        mx = v[i] * (i % 3) > mx ? v[i] * (i % 3) : mx;
    unsigned bits = 0x80000000u;
#pragma omp target teams distribute parallel for reduction(| : bits)
    for (int i = 0; i < 20; i++)
        bits |= 1u << i;
    printf("acc=%.6f t1=%ld t2=%ld mx=%d bits=%x\n", acc, t1, t2, mx, bits);
    return 0;
}
