/* Pointers used in target regions without map clauses: each becomes a zero-length array section
 * that must already be present (mapped by an enclosing `target data` in the caller), so the
 * kernel gets the device address; the same function runs on different arrays and sizes. */
#include <stdio.h>
#include <stdlib.h>

static void scale_add(double *dst, const double *src, int n, double f)
{
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
        dst[i] += f * src[i];
}

static double device_sum(const double *v, int n)
{
    double s = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(void)
{
    int n1 = 1000, n2 = 3000;
    double *a = malloc(n1 * sizeof *a), *b = malloc(n1 * sizeof *b);
    double *c = malloc(n2 * sizeof *c), *d = malloc(n2 * sizeof *d);
    for (int i = 0; i < n1; i++) {
        a[i] = i;
        b[i] = 1.0;
    }
    for (int i = 0; i < n2; i++) {
        c[i] = i % 10;
        d[i] = 0.5;
    }
    double s1, s2, s3;
#pragma omp target data map(tofrom : a[0:n1], c[0:n2]) map(to : b[0:n1], d[0:n2])
    {
        scale_add(a, b, n1, 2.0);
        scale_add(c, d, n2, -4.0);
        scale_add(a, a, n1, 1.0); /* dst and src alias: a = 2a */
        s1 = device_sum(a, n1);
        s2 = device_sum(c, n2);
        s3 = device_sum(d + 100, n2 - 100); /* interior pointer into a mapped section */
    }
    printf("s1=%.6f s2=%.6f s3=%.6f a[999]=%.6f c[7]=%.6f\n", s1, s2, s3, a[n1 - 1], c[7]);
    free(a);
    free(b);
    free(c);
    free(d);
    return 0;
}
