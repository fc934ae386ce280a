/* Reductions on double with + - * min max && ||, several in one construct, on a 2-D loop
 * with collapse(2), and the result combined with a nonzero initial value. */
#include <stdio.h>
#include <math.h>

#define N 100

int main(void)
{
    double sum = 10.0, diff = 0.0, prod = 1.0, lo = HUGE_VAL, hi = -HUGE_VAL;
    double land = 1.0, lor = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(+ : sum) \
    reduction(- : diff) reduction(min : lo) reduction(max : hi)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double x = sqrt((double)(i * N + j)) - 0.5 * i;
            sum += x;
            diff -= 1.0 / (1 + i + j);
            lo = fmin(lo, x);
            hi = fmax(hi, x);
        }
#pragma omp target teams distribute parallel for reduction(* : prod)
    for (int i = 1; i <= 30; i++)
        prod *= 1.0 + 1.0 / i;
#pragma omp target teams distribute parallel for reduction(&& : land) reduction(|| : lor)
    for (int i = 0; i < N * N; i++) {
        land = land && (i * 0.5 < 1e6);
        lor = lor || (i == 4242);
    }
    printf("sum=%.10g diff=%.10g prod=%.10g\n", sum, diff, prod);
    printf("min=%.10g max=%.10g land=%d lor=%d\n", lo, hi, land != 0.0, lor != 0.0);
    return 0;
}
