/* The distribute forms: `target teams distribute` alone, dist_schedule(static[, chunk]),
 * `target teams` with a nested `distribute parallel for`, and `target` with a nested
 * `teams distribute parallel for`. */
#include <stdio.h>

#define N 5000

int main(void)
{
    static int a[N], b[N], c[N], d[N];
#pragma omp target teams distribute map(from : a)
    for (int i = 0; i < N; i++)
        a[i] = i % 41;
#pragma omp target teams distribute dist_schedule(static, 64) map(from : b)
    for (int i = 0; i < N; i++)
        b[i] = (i * 3) % 23;
#pragma omp target teams distribute parallel for dist_schedule(static) map(from : c)
    for (int i = 0; i < N; i++)
        c[i] = i % 7 - 3;
#pragma omp target teams map(from : d)
#pragma omp distribute parallel for dist_schedule(static, 100)
    for (int i = 0; i < N; i++)
        d[i] = i / 100;
    long s = 0;
    for (int i = 0; i < N; i++)
        s += (long)a[i] * 1 + b[i] * 3 + c[i] * 7 + d[i] * 11;
    printf("s=%ld a[77]=%d b[77]=%d c[77]=%d d[4999]=%d\n", s, a[77], b[77], c[77], d[N - 1]);

    long t = 0;
#pragma omp target map(tofrom : t) map(to : a, b)
#pragma omp teams distribute parallel for reduction(+ : t)
    for (int i = 0; i < N; i++)
        t += a[i] * b[i];
    long u = 0;
#pragma omp target teams distribute reduction(+ : u) map(to : c)
    for (int i = 0; i < N; i++)
        u += c[i] * c[i];
    printf("t=%ld u=%ld\n", t, u);
    return 0;
}
