/* Data planning through helper functions that take the array's length as a parameter, as
 * users write them (`step(a, n)` with `map(a[0:n])` inside `step`; the unmapped form, which
 * only a planned build can run, is dataplan's callee_scalar_bound.c): the planner binds the parameter to the caller's variable, keeps the data on the device across
 * the time loop and copies back only where the host reads; one helper's result is added up
 * (`s += f(...)`), one helper calls another (the host writes between kernels), and one assigns its parameter (left unplanned).
 * Every build must print gcc's output (with and without -fopenmp-plan-data). */
#include <stdio.h>
#include <stdlib.h>

static void step(double *a, int n)
{
#pragma omp target teams distribute parallel for map(tofrom : a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 0.5 + 1.0;
}

static void step_and_bump(double *x, int m)
{
    step(x, m);
    x[m / 3] += 1.0;
}

static double halve_sum(double *a, int n)
{
#pragma omp target teams distribute parallel for map(tofrom : a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 0.5 + 2.0;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static void shrink(long *v, int n)
{
    n = n - 1;
#pragma omp target teams distribute parallel for map(tofrom : v[0:n + 1])
    for (int i = 0; i < n; i++)
        v[i] = v[i] * 2 + v[n] + i % 7;
}

int main(void)
{
    int n = 1000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), s = 0;
    long *v = malloc(n * sizeof *v);
    for (int i = 0; i < n; i++) {
        a[i] = i % 17;
        b[i] = i % 5;
        v[i] = i % 3;
    }
    for (int t = 0; t < 8; t++)
        step_and_bump(a, n);
    printf("a: %.6f %.6f %.6f\n", a[0], a[n / 2], a[n - 1]);
    for (int t = 0; t < 6; t++)
        s += halve_sum(b, n);
    printf("b: sum of sums %.6f, b[3] %.6f\n", s, b[3]);
    for (int t = 0; t < 4; t++)
        shrink(v, n);
    long sv = 0;
    for (int i = 0; i < n; i++)
        sv += v[i];
    printf("v: %ld %ld\n", sv, v[0]);
    free(a);
    free(b);
    free(v);
    return 0;
}
