/* Reductions on float with + - * min max && ||: values are small multiples of 1/4 so every
 * partial sum is exact in float and the result does not depend on the combining order. */
#include <stdio.h>
#include <float.h>

#define N 10000

static float v[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        v[i] = (float)((i * 37) % 64) * 0.25f - 4.0f;
    float sum = 0.0f, diff = 0.0f, prod = 1.0f, lo = FLT_MAX, hi = -FLT_MAX;
    float land = 1.0f, lor = 0.0f;
#pragma omp target teams distribute parallel for reduction(+ : sum) reduction(- : diff) map(to : v)
    for (int i = 0; i < N; i++) {
        sum += v[i];
        diff -= v[i] * 0.5f;
    }
#pragma omp target teams distribute parallel for reduction(* : prod) map(to : v)
    for (int i = 0; i < 40; i++)
        prod *= (i % 3 == 0) ? 2.0f : (i % 3 == 1 ? 0.5f : 1.5f);
#pragma omp target teams distribute parallel for reduction(min : lo) reduction(max : hi) map(to : v)
    for (int i = 0; i < N; i++) {
        float x = v[i] * (float)(i % 5);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
#pragma omp target teams distribute parallel for reduction(&& : land) reduction(|| : lor) map(to : v)
    for (int i = 0; i < N; i++) {
        land = land && v[i] > -5.0f;
        lor = lor || v[i] == 11.75f;
    }
    printf("sum=%.6f diff=%.6f prod=%.6f\n", sum, diff, prod);
    printf("min=%.6f max=%.6f land=%d lor=%d\n", lo, hi, land != 0.0f, lor != 0.0f);
    return 0;
}
