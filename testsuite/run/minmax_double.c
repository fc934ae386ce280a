/* min and max reductions on double (and the fmin/fmax builtins inside the loop), over values
 * with a known extreme, together in one construct and separately. */
#include <stdio.h>
#include <math.h>

#define N 10000

static double v[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        v[i] = sin(i * 0.001) * 100.0 + (i % 37) * 0.01;
    double lo = INFINITY, hi = -INFINITY;
#pragma omp target teams distribute parallel for reduction(min : lo) reduction(max : hi) map(to : v)
    for (int i = 0; i < N; i++) {
        if (v[i] < lo)
            lo = v[i];
        if (v[i] > hi)
            hi = v[i];
    }
    printf("min=%.10g max=%.10g\n", lo, hi);

    double lo2 = 1e300, hi2 = -1e300;
#pragma omp target teams distribute parallel for reduction(min : lo2) map(to : v)
    for (int i = 0; i < N; i++)
        lo2 = fmin(lo2, v[i] * v[i] - 50.0);
#pragma omp target teams distribute parallel for reduction(max : hi2) map(to : v)
    for (int i = 0; i < N; i++)
        hi2 = fmax(hi2, fabs(v[i] - 3.0));
    printf("min2=%.10g max2=%.10g\n", lo2, hi2);
    return 0;
}
