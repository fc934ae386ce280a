/* `target nowait` regions synchronised with `taskwait`, independent kernels in flight together,
 * a chain ordered by `depend`, and `target enter data nowait`. */
#include <stdio.h>

#define N 4096

int main(void)
{
    static double a[N], b[N], c[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = c[i] = 0.0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp target teams distribute parallel for nowait map(tofrom : a)
        for (int i = 0; i < N; i++)
            a[i] = i * 0.5;
#pragma omp target teams distribute parallel for nowait map(tofrom : b)
        for (int i = 0; i < N; i++)
            b[i] = (i % 10) * 2.0;
#pragma omp taskwait
        /* a dependence chain: c = a, then c += b, then c *= 2 */
#pragma omp target nowait map(to : a) map(tofrom : c) depend(out : c)
        for (int i = 0; i < N; i++)
            c[i] = a[i];
#pragma omp target teams distribute parallel for nowait map(to : b) map(tofrom : c) \
    depend(inout : c)
        for (int i = 0; i < N; i++)
            c[i] += b[i];
#pragma omp target teams distribute parallel for nowait map(tofrom : c) depend(inout : c)
        for (int i = 0; i < N; i++)
            c[i] *= 2.0;
#pragma omp taskwait
    }
    double sa = 0, sb = 0, sc = 0;
    for (int i = 0; i < N; i++) {
        sa += a[i];
        sb += b[i];
        sc += c[i];
    }
    printf("sa=%.6f sb=%.6f sc=%.6f c[11]=%.6f\n", sa, sb, sc, c[11]);

    /* nowait outside any parallel region, then taskwait */
    static int d[N];
#pragma omp target enter data map(to : d) nowait
#pragma omp taskwait
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < N; i++)
        d[i] = i % 13;
#pragma omp taskwait
#pragma omp target exit data map(from : d)
    long sd = 0;
    for (int i = 0; i < N; i++)
        sd += d[i];
    printf("sd=%ld\n", sd);
    return 0;
}
