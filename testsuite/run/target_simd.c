/* `target simd`, `target parallel for simd`, `target teams distribute simd` and
 * `target teams distribute parallel for simd`, with safelen/simdlen and a simd reduction. */
#include <stdio.h>

#define N 8192

int main(void)
{
    static float x[N], y[N], z[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 64) * 0.125f;
        y[i] = 1.0f;
    }
#pragma omp target simd map(to : x) map(tofrom : y)
    for (int i = 0; i < N; i++)
        y[i] += x[i];
    float s = 0.0f;
#pragma omp target simd reduction(+ : s) map(to : y)
    for (int i = 0; i < N; i++)
        s += y[i];
#pragma omp target parallel for simd safelen(8) map(to : x, y) map(from : z)
    for (int i = 0; i < N; i++)
        z[i] = x[i] * y[i];
#pragma omp target teams distribute simd simdlen(4) map(tofrom : z)
    for (int i = 0; i < N; i++)
        z[i] = z[i] - x[i];
    double t = 0.0;
#pragma omp target teams distribute parallel for simd reduction(+ : t) map(to : z)
    for (int i = 0; i < N; i++)
        t += z[i];
    /* simd with a loop-carried dependence distance of 4: safelen(4) keeps it correct */
    int dep[N];
    for (int i = 0; i < N; i++)
        dep[i] = i % 3;
#pragma omp target simd safelen(4) map(tofrom : dep)
    for (int i = 4; i < N; i++)
        dep[i] = dep[i - 4] + 1;
    long ds = 0;
    for (int i = 0; i < N; i++)
        ds += dep[i];
    printf("s=%.6f t=%.6f z[100]=%.6f dep[8191]=%d ds=%ld\n", s, t, z[100], dep[N - 1], ds);
    return 0;
}
