/* `if(target: ...)`, `if(...)` without modifier and `if(parallel: ...)`: regions whose condition
 * is false run on the host; results must be the same either way. */
#include <stdio.h>

#define N 3000

static void scale(double *v, int n, double f, int offload)
{
#pragma omp target teams distribute parallel for if(target : offload) map(tofrom : v[0:n])
    for (int i = 0; i < n; i++)
        v[i] *= f;
}

int main(void)
{
    static double v[N];
    for (int i = 0; i < N; i++)
        v[i] = i % 10;
    scale(v, N, 2.0, 1);
    scale(v, N, 0.5, 0);
    scale(v, N, 3.0, N > 100);
    double s = 0;
    for (int i = 0; i < N; i++)
        s += v[i];
    printf("s=%.6f\n", s);

    int hits = 0;
    for (int pass = 0; pass < 4; pass++) {
#pragma omp target if(pass % 2 == 0) map(tofrom : hits)
        hits += pass + 1;
    }
    printf("hits=%d\n", hits);

    long tot = 0;
    int big = 0;
#pragma omp target parallel for if(parallel : big) reduction(+ : tot)
    for (int i = 0; i < N; i++)
        tot += i;
    printf("tot=%ld\n", tot);
    return 0;
}
