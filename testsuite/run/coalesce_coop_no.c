/* Warp-cooperative inner loops (issue 16 item 4): rows whose inner loop ompcc must not give
 * to a group of lanes: a floating-point sum (the order would change its rounding; its terms
 * are not in its type, so not in order either), an inner
 * loop that writes memory, one that calls a function, a second scalar written in the loop, a
 * statement before the loop, an inner loop with 3 iterations, a 'schedule' clause. */
#include <stdio.h>
#include <stdlib.h>

#define N 70
#define M 45

static int twice(int x) { return 2 * x; }
#pragma omp declare target to(twice)

int main(void)
{
    int n = N, m = M;
    int *a = malloc(sizeof(int) * n * m), *x = malloc(sizeof(int) * m);
    long *y = malloc(sizeof(long) * n);
    int *z = malloc(sizeof(int) * n), *w = malloc(sizeof(int) * n * m);
    double *d = malloc(sizeof(double) * n * m), *dy = malloc(sizeof(double) * n);
    for (int i = 0; i < n * m; i++) {
        a[i] = (i * 7) % 31 - 11;
        d[i] = 0.1 * ((i * 13) % 17);
        w[i] = 0;
    }
    for (int j = 0; j < m; j++)
        x[j] = (j * 5) % 9 - 3;
#pragma omp target data map(to : a[0:n * m], x[0:m], d[0:n * m]) map(tofrom : w[0:n * m])
    {
        /* must not fire: a floating-point sum (the order would change its rounding), whose
         * updates are computed in double and rounded to float (not shared in order either) */
#pragma omp target teams distribute parallel for map(from : dy[0:n])
        for (int i = 0; i < n; i++) {
            float s = 0.0f;
            for (int j = 0; j < m; j++)
                s += d[i * m + j] * x[j];
            dy[i] = s;
        }
        printf("fp: dy[0]=%.9g dy[50]=%.9g\n", dy[0], dy[50]);

        /* must not fire: the inner loop writes memory */
#pragma omp target teams distribute parallel for map(from : y[0:n])
        for (int i = 0; i < n; i++) {
            long s = 0;
            for (int j = 0; j < m; j++) {
                s += a[i * m + j];
                w[i * m + j] = (int)s;
            }
            y[i] = s;
        }
        printf("write: y[5]=%ld\n", y[5]);

        /* must not fire: a call in the inner loop */
#pragma omp target teams distribute parallel for map(from : z[0:n])
        for (int i = 0; i < n; i++) {
            int s = 0;
            for (int j = 0; j < m; j++)
                s += twice(a[i * m + j]);
            z[i] = s;
        }
        printf("call: z[7]=%d\n", z[7]);

        /* must not fire: a second scalar carried by the inner loop */
#pragma omp target teams distribute parallel for map(from : z[0:n])
        for (int i = 0; i < n; i++) {
            int s = 0, last = 0;
            for (int j = 0; j < m; j++) {
                s += a[i * m + j] * last;
                last = a[i * m + j];
            }
            z[i] = s;
        }
        printf("carried: z[8]=%d\n", z[8]);

        /* must not fire: a statement before the loop */
#pragma omp target teams distribute parallel for map(from : z[0:n])
        for (int i = 0; i < n; i++) {
            int s;
            s = i;
            for (int j = 0; j < m; j++)
                s += a[i * m + j];
            z[i] = s;
        }
        printf("stmt: z[9]=%d\n", z[9]);

        /* must not fire: 3 iterations */
#pragma omp target teams distribute parallel for map(from : z[0:n])
        for (int i = 0; i < n; i++) {
            int s = 0;
            for (int j = 0; j < 3; j++)
                s += a[i * m + j];
            z[i] = s;
        }
        printf("short: z[10]=%d\n", z[10]);

        /* must not fire: schedule fixes which thread runs each row */
#pragma omp target teams distribute parallel for schedule(static, 2) map(from : z[0:n])
        for (int i = 0; i < n; i++) {
            int s = 0;
            for (int j = 0; j < m; j++)
                s += a[i * m + j];
            z[i] = s;
        }
        printf("schedule: z[11]=%d\n", z[11]);
    }
    printf("w[5*M+44]=%d\n", w[5 * M + 44]);
    free(a);
    free(x);
    free(y);
    free(z);
    free(w);
    free(d);
    free(dy);
    return 0;
}
