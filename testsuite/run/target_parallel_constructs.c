/* `target parallel` with worksharing `for`, `single`, `master`, `masked`, `critical` (named and
 * unnamed) and `barrier` between phases that read what other threads wrote. */
#include <stdio.h>
#include <omp.h>

#define N 1024

int main(void)
{
    static int a[N], b[N];
    int singles = 0, masters = 0, maskeds = 0;
    long crit = 0, crit2 = 0;
#pragma omp target parallel num_threads(8) map(tofrom : a, b, singles, masters, maskeds, crit, crit2)
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = i * 3 % 17;
        /* implicit barrier after the for: b may read any a */
#pragma omp for
        for (int i = 0; i < N; i++)
            b[i] = a[(i + 1) % N] + a[(i + N - 1) % N];
#pragma omp single
        singles++;
#pragma omp master
        masters++;
#pragma omp masked
        maskeds += 10;
#pragma omp critical
        crit += 5;
#pragma omp critical(second)
        crit2 += omp_get_thread_num() >= 0 ? 1 : 0;
#pragma omp barrier
        /* after the barrier every thread sees both counters complete */
#pragma omp single
        {
            crit2 = crit2 * 5 == crit ? 1 : 0;
            crit = crit > 0;
        }
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            a[i] = b[i] - a[i];
    }
    long sa = 0, sb = 0;
    for (int i = 0; i < N; i++) {
        sa += a[i];
        sb += b[i];
    }
    printf("sa=%ld sb=%ld singles=%d masters=%d maskeds=%d crit=%ld consistent=%ld\n", sa, sb,
           singles, masters, maskeds, crit, crit2);
    return 0;
}
