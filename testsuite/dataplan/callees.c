/* Data planning across calls (-fopenmp-plan-data; the run suite builds every program planned
 * too): a callee with a target region called once from a caller's time loop that has its own
 * region (the callee is planned inside its caller's range, so its own copy-back cannot be
 * swallowed by the caller's mapping), a callee called from two places inside such a loop
 * (the caller must leave the data it touches alone), and main calling init / step / report
 * functions that share a file-scope pointer and a passed one. */
#include <stdio.h>
#include <stdlib.h>

#define N 64

static double *g;

static void bump(double *a)
{
#pragma omp target teams distribute parallel for map(tofrom : a[0:N])
    for (int i = 0; i < N; i++)
        a[i] += 1.0;
}

static void twice(double *a)
{
#pragma omp target teams distribute parallel for map(tofrom : a[0:N])
    for (int i = 0; i < N; i++)
        a[i] = a[i] * 0.5 + 3.0;
}

static void step(const double *w)
{
#pragma omp target teams distribute parallel for map(tofrom : g[0:N]) map(to : w[0:N])
    for (int i = 0; i < N; i++)
        g[i] = g[i] * 0.75 + w[i];
}

static void report(int t)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        s += g[i];
    printf("report %d %.3f\n", t, s);
}

int main(void)
{
    double a[N], b[N];
    double *w = malloc(N * sizeof *w);
    g = malloc(N * sizeof *g);
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = N - i;
        w[i] = (i % 4) * 0.25;
        g[i] = i;
    }
    for (int t = 0; t < 3; t++) {
#pragma omp target teams distribute parallel for map(tofrom : a[0:N])
        for (int i = 0; i < N; i++)
            a[i] *= 2.0;
        bump(a);
        a[0] += 100.0;
    }
    for (int t = 0; t < 3; t++) {
#pragma omp target teams distribute parallel for map(tofrom : b[0:N])
        for (int i = 0; i < N; i++)
            b[i] -= 1.0;
        twice(b);
        twice(b);
    }
    double sa = 0, sb = 0;
    for (int i = 0; i < N; i++) {
        sa += a[i];
        sb += b[i];
    }
    printf("a %.3f b %.3f\n", sa, sb);

    for (int t = 1; t <= 6; t++) {
        g[t] = -1.0;
        step(w);
        if (t % 3 == 0)
            report(t);
    }
    report(7);
    free(w);
    free(g);
    return 0;
}
