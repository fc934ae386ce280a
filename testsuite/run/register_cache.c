/* Register caching (issue 16 item 7, the `cache` pass at -O2): a thread's sequential loop
 * that reads an array it never writes at offsets a whole number of iterations apart loads
 * each element once and carries it in registers; invariant loads leave the loop. Where it
 * fires: a row sweep with a 3-point and a 5-point stencil (the row's recurrence keeps the
 * loop sequential), a column sweep after the loop swap (offsets n apart), a pointer walking a
 * row, an invariant element. Where it must not: the array written in the loop (in place), a
 * pointer that aliases the written array, an offset known only at run time. */
#include <stdio.h>
#include <stdlib.h>

#define N 20
#define M 36

static long checksum(const long *v, int len)
{
    long s = 0;
    for (int i = 0; i < len; i++)
        s += v[i] * (i % 7 + 1);
    return s;
}

int main(void)
{
    int n = N, m = M, k = 1 + (N > 100);
    long *a = malloc(sizeof(long) * n * m), *b = malloc(sizeof(long) * n * m);
    long *x = malloc(sizeof(long) * n * m);
    double *d = malloc(sizeof(double) * n * m), *e = malloc(sizeof(double) * n * m);
    for (int i = 0; i < n * m; i++) {
        a[i] = (i * 13) % 29 - 9;
        x[i] = (i * 5) % 11;
        d[i] = (i % 17) * 0.25;
    }
    /* row sweep, 3 points, with a recurrence in b: one load of a per iteration */
#pragma omp target teams distribute parallel for map(to : a[0:n * m]) map(tofrom : b[0:n * m])
    for (int r = 0; r < n; r++) {
        b[r * m] = a[r * m];
        for (int c = 1; c < m - 1; c++)
            b[r * m + c] = b[r * m + c - 1] / 2 + a[r * m + c - 1] + 2 * a[r * m + c] -
                           a[r * m + c + 1];
        b[r * m + m - 1] = 0;
    }
    printf("sweep3 %ld\n", checksum(b, n * m));
    /* 5 points in double, and a[r*m] read on every iteration (invariant) */
#pragma omp target teams distribute parallel for map(to : d[0:n * m]) map(from : e[0:n * m])
    for (int r = 0; r < n; r++) {
        double run = 0;
        for (int c = 2; c < m - 2; c++) {
            run = run * 0.5 + d[r * m + c - 2] - d[r * m + c - 1] + 4 * d[r * m + c] +
                  d[r * m + c + 1] - d[r * m + c + 2] + d[r * m];
            e[r * m + c] = run;
        }
        e[r * m] = e[r * m + 1] = e[r * m + m - 2] = e[r * m + m - 1] = 0;
    }
    double es = 0;
    for (int i = 0; i < n * m; i++)
        es += e[i] * (i % 5);
    printf("sweep5 %.6f\n", es);
    /* column sweep: the threads take j, each walks i reading rows i-1, i, i+1 */
#pragma omp target teams distribute parallel for map(to : a[0:n * m]) map(from : b[0:n * m])
    for (int i = 1; i < n - 1; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = a[(i - 1) * m + j] + 3 * a[i * m + j] - a[(i + 1) * m + j];
    printf("column %ld\n", checksum(b + m, (n - 2) * m));
    /* a pointer walking its row */
    long walk = 0;
#pragma omp target teams distribute parallel for reduction(+ : walk) map(to : a[0:n * m])
    for (int r = 0; r < n; r++) {
        const long *p = a + r * m;
        for (int c = 0; c < m - 1; c++)
            walk += p[c] * p[c + 1] - p[c];
    }
    printf("walk %ld\n", walk);
    /* must not: x written in place, each element read after its left neighbour's update */
#pragma omp target teams distribute parallel for map(tofrom : x[0:n * m])
    for (int r = 0; r < n; r++)
        for (int c = 1; c < m - 1; c++)
            x[r * m + c] = (x[r * m + c - 1] + x[r * m + c + 1]) / 2 + 1;
    printf("inplace %ld\n", checksum(x, n * m));
    /* must not: y aliases x (the same section), so the store may change what y reads */
    long *y = x;
#pragma omp target teams distribute parallel for map(tofrom : x[0:n * m]) map(to : y[0:n * m])
    for (int r = 0; r < n; r++)
        for (int c = 1; c < m - 1; c++)
            x[r * m + c] = y[r * m + c - 1] - y[r * m + c + 1] + c;
    printf("alias %ld\n", checksum(x, n * m));
    /* must not: a[c] and a[c + k] are k apart, k known at run time only */
    long far = 0;
#pragma omp target teams distribute parallel for reduction(+ : far) map(to : a[0:n * m])
    for (int r = 0; r < n; r++)
        for (int c = 0; c < m - k; c++)
            far += a[r * m + c] * a[r * m + c + k] + r;
    printf("offset %ld\n", far);
    free(a);
    free(b);
    free(x);
    free(d);
    free(e);
    return 0;
}
