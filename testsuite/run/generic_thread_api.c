/* Generic-mode teams: omp_get_thread_num / omp_get_num_threads on the team's main thread
 * (a team of one: 0 and 1, as with gcc) and inside nested parallel regions (checked against
 * each other, since the team size is the implementation's choice). */
#include <omp.h>
#include <stdio.h>

#define B 6

int main(void)
{
    int out_tn[B], out_nt[B], ok[B], after_tn[B];
    long hits[B];
#pragma omp target teams map(from : out_tn, out_nt, ok, after_tn, hits)
    {
        int base = 100; /* team-level sequential code: generic mode */
#pragma omp distribute
        for (int b = 0; b < B; b++) {
            /* the team's main thread alone, outside any parallel region */
            out_tn[b] = omp_get_thread_num();
            out_nt[b] = omp_get_num_threads();
            int good = 1, size = 0;
            long ids = 0, ones = 0;
#pragma omp parallel reduction(&& : good) reduction(+ : ids, ones)
            {
                int t = omp_get_thread_num(), n = omp_get_num_threads();
                good = t >= 0 && t < n && n >= 1;
                ids += t;
                ones += 1;
#pragma omp master
                size = n;
            }
            /* every thread counted once: 0 + 1 + ... + (size - 1) */
            ok[b] = good && ones == size && ids == (long)size * (size - 1) / 2;
            long h = 0;
#pragma omp parallel for reduction(+ : h)
            for (int i = 0; i < base * (b + 1); i++)
                h += (omp_get_thread_num() < omp_get_num_threads()) ? 1 : 1000;
            hits[b] = h;
            after_tn[b] = omp_get_thread_num() + omp_get_num_threads();
        }
    }
    for (int b = 0; b < B; b++)
        printf("b=%d outside: thread %d of %d; inside ok=%d hits=%ld; after=%d\n", b, out_tn[b],
               out_nt[b], ok[b], hits[b], after_tn[b]);
    return 0;
}
