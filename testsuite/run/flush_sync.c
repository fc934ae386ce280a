/* `flush` and atomics for a hand-made two-phase handshake inside `target parallel`: every thread
 * publishes a value, counts itself in with an atomic, waits at a barrier, and reads all values
 * after a flush; plus a seq_cst atomic read loop that terminates. */
#include <stdio.h>
#include <omp.h>

#define MAXT 64

int main(void)
{
    int vals[MAXT] = {0};
    int arrived = 0, nthreads = 0;
    long seen_total = 0;
#pragma omp target parallel num_threads(16) map(tofrom : vals, arrived, nthreads, seen_total)
    {
        int t = omp_get_thread_num();
        if (t < MAXT)
            vals[t] = (t + 1) * 10;
#pragma omp flush
#pragma omp atomic
        arrived++;
#pragma omp barrier
#pragma omp flush
        int n = omp_get_num_threads();
        long s = 0;
        for (int k = 0; k < n && k < MAXT; k++)
            s += vals[k];
        /* expected: 10 * n * (n + 1) / 2 */
        int ok = s == 10L * n * (n + 1) / 2;
        int cnt;
#pragma omp atomic read seq_cst
        cnt = arrived;
#pragma omp atomic
        seen_total += ok && cnt == n;
#pragma omp single
        nthreads = n;
    }
    printf("all_consistent=%d\n", seen_total == nthreads && arrived == nthreads);
    return 0;
}
