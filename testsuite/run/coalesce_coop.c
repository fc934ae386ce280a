/* Warp-cooperative inner loops (issue 16 item 4): a thread per row whose inner loop reduces
 * the row, which ompcc -O2 gives to a group of lanes: integer dot products of rows, a value
 * before the loop, '-=', '^', '*', a short constant row picking 8 lanes, continue in the inner
 * loop and in the rest of the body, a directive reduction around it, a 'parallel for' region
 * with a thread_limit narrower than a warp, more rows than threads, 'teams distribute' with a
 * nested 'parallel for reduction', a 'simd reduction' inner loop. coalesce_coop_no.c has the
 * rows where it must not fire. */
#include <stdio.h>
#include <stdlib.h>

#define N 70
#define M 45

int main(void)
{
    int n = N, m = M;
    int *a = malloc(sizeof(int) * n * m), *x = malloc(sizeof(int) * m);
    long *y = malloc(sizeof(long) * n);
    int *z = malloc(sizeof(int) * n);
    unsigned *u = malloc(sizeof(unsigned) * n);
    float *f = malloc(sizeof(float) * n);
    double *g = malloc(sizeof(double) * n);
    for (int i = 0; i < n * m; i++)
        a[i] = (i * 7) % 31 - 11;
    for (int j = 0; j < m; j++)
        x[j] = (j * 5) % 9 - 3;
    long total = 0;
#pragma omp target data map(to : a[0:n * m], x[0:m])
    {
        /* a dot product per row, with a value before the loop and a directive reduction */
#pragma omp target teams distribute parallel for reduction(+ : total) map(from : y[0:n])
        for (int i = 0; i < n; i++) {
            long s = i * 1000;
            for (int j = 0; j < m; j++)
                s += (long)a[i * m + j] * x[j];
            y[i] = s;
            total += s;
        }
        printf("dot: y[0]=%ld y[33]=%ld y[69]=%ld total=%ld\n", y[0], y[33], y[69], total);

        /* '-=' and continue in the inner loop, continue in the rest of the body */
#pragma omp target teams distribute parallel for map(from : z[0:n])
        for (int i = 0; i < n; i++) {
            int s = 0;
            for (int j = 0; j < m; j++) {
                if (a[i * m + j] < 0)
                    continue;
                s -= a[i * m + j];
            }
            z[i] = -1;
            if (i % 3 == 0)
                continue;
            z[i] = s;
        }
        printf("sub: z[0]=%d z[1]=%d z[34]=%d z[68]=%d\n", z[0], z[1], z[34], z[68]);

        /* '^' on unsigned, a short constant row (6 iterations: 8 lanes) */
#pragma omp target teams distribute parallel for map(from : u[0:n])
        for (int i = 0; i < n; i++) {
            unsigned h = 2166136261u;
            for (int j = 0; j < 6; j++)
                h ^= (unsigned)a[i * m + j] * 16777619u;
            u[i] = h;
        }
        printf("xor: u[0]=%u u[40]=%u\n", u[0], u[40]);

        /* '*' with wrap-around, in a 'target parallel for' of 20 threads (groups of one lane) */
#pragma omp target parallel for thread_limit(20) map(from : z[0:n])
        for (int i = 0; i < n; i++) {
            int p = 1;
            for (int j = 0; j < m; j++)
                p *= (a[i * m + j] | 1);
            z[i] = p;
        }
        printf("mul: z[0]=%d z[9]=%d z[69]=%d\n", z[0], z[9], z[69]);

        /* more rows than threads: each group takes several rows */
#pragma omp target teams distribute parallel for num_teams(1) thread_limit(64) map(from : y[0:n])
        for (int i = 0; i < n; i++) {
            long s = 0;
            for (int j = 0; j < m; j++)
                s += a[i * m + j] & 0x7;
            y[i] = s;
        }
        printf("few: y[0]=%ld y[67]=%ld\n", y[0], y[67]);

        /* 'teams distribute' with a nested 'parallel for reduction' (float sums of small
         * integers: exact in any order), and a 'simd reduction' inside 'parallel for' */
#pragma omp target teams distribute map(from : f[0:n])
        for (int i = 0; i < n; i++) {
            float s = 0.5f;
#pragma omp parallel for reduction(+ : s)
            for (int j = 0; j < m; j++)
                s += (float)a[i * m + j] * x[j];
            f[i] = s;
        }
#pragma omp target teams distribute parallel for map(from : g[0:n])
        for (int i = 0; i < n; i++) {
            double s = 0;
#pragma omp simd reduction(+ : s)
            for (int j = 0; j < m; j++)
                s += a[i * m + j] - 0.25;
            g[i] = s;
        }
        printf("nested: f[0]=%.2f f[69]=%.2f g[1]=%.2f g[50]=%.2f\n", f[0], f[69], g[1], g[50]);
    }
    free(a);
    free(x);
    free(y);
    free(z);
    free(u);
    free(f);
    free(g);
    return 0;
}
