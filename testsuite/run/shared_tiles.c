/* Shared tiles (issue 16 item 7): arrays each iteration reads at several constant offsets of
 * the loop variable are staged per block in .shared at -O2 (3- and 5-point stencils, a
 * restrict pointer, a trip count no block size divides, a lower bound of 1), and stay in
 * global memory where the tile would be wrong or unproven: an array the region writes, a
 * pointer another written pointer may alias, a subscript that is not i + c, a read under ?:,
 * and a loop body with control flow. */
#include <stdio.h>

#define N 1000

static double a[2 * N + 8], b[N + 8], c[N + 8];
static int idx[N];

static void blur5(int n, const double *restrict x, double *restrict y)
{
#pragma omp target teams distribute parallel for map(to : x[0:n + 4]) map(from : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = (x[i] + 4 * x[i + 1] + 6 * x[i + 2] + 4 * x[i + 3] + x[i + 4]) / 16;
}

/* p and q may be the same array (they are not at the call): no tile */
static void shift_add(int n, const double *p, double *q)
{
#pragma omp target teams distribute parallel for map(to : p[0:n + 1]) map(tofrom : q[0:n])
    for (int i = 0; i < n; i++)
        q[i] = p[i] + p[i + 1];
}

static double checksum(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i] * (1 + i % 7);
    return s;
}

int main(void)
{
    for (int i = 0; i < 2 * N + 8; i++)
        a[i] = (i % 19) * 0.25;
    for (int i = 0; i < N; i++)
        idx[i] = (i * 7) % N;

    /* 3-point stencil from 1, a trip count of 997 */
#pragma omp target teams distribute parallel for map(to : a[0:N + 8]) map(from : b[0:N])
    for (int i = 1; i < N - 2; i++)
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    printf("3-point %.6f\n", checksum(b + 1, N - 3));

    blur5(N, a, c);
    printf("5-point %.6f\n", checksum(c, N));

    /* a is written (far from what is read): no tile */
#pragma omp target teams distribute parallel for map(tofrom : a)
    for (int i = 0; i < N; i++)
        a[N + 4 + i] = a[i] - a[i + 2];
    printf("written %.6f\n", checksum(a + N, N + 8));

    /* a subscript that is not i + c: no tile */
#pragma omp target teams distribute parallel for map(to : a[0:N + 8], idx) map(from : b[0:N])
    for (int i = 0; i < N; i++)
        b[i] = a[i] + a[i + 1] + a[idx[i]];
    printf("gather %.6f\n", checksum(b, N));

    /* a read only under ?: no tile */
#pragma omp target teams distribute parallel for map(to : a[0:N + 8]) map(from : b[0:N])
    for (int i = 0; i < N; i++)
        b[i] = a[i + 1] + (i > 0 ? a[i - 1] : 0.0);
    printf("guarded %.6f\n", checksum(b, N));

    /* control flow in the body: no tile */
#pragma omp target teams distribute parallel for map(to : a[0:N + 8]) map(from : b[0:N])
    for (int i = 0; i < N; i++) {
        double s = a[i] + a[i + 2];
        if (s > 4.0)
            s = s - a[i + 1];
        b[i] = s;
    }
    printf("branchy %.6f\n", checksum(b, N));

    for (int i = 0; i < N; i++)
        b[i] = i % 3;
    shift_add(N - 1, b, c);
    printf("aliased %.6f\n", checksum(c, N - 1));
    return 0;
}
