/* Host OpenMP work sharing and synchronization: sections, single with copyprivate, master,
 * critical (named and unnamed), barrier, ordered, and firstprivate/lastprivate. Prints only
 * values that are independent of the number of threads. */
#include <stdio.h>
#include <string.h>
#include <omp.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void)
{
    long results[4] = {0};
#pragma omp parallel sections
    {
#pragma omp section
        results[0] = fib(20);
#pragma omp section
        {
            long s = 0;
            for (int i = 1; i <= 1000; i++)
                s += (long)i * i;
            results[1] = s;
        }
#pragma omp section
        results[2] = (long)strlen("sections run once each");
#pragma omp section
        {
            long p = 1;
            for (int i = 1; i <= 15; i++)
                p *= i;
            results[3] = p;
        }
    }
    printf("sections: %ld %ld %ld %ld\n", results[0], results[1], results[2], results[3]);

    int total = 0, named_total = 0, singles = 0, masters = 0, broadcast = 0;
    int max_seen = -1;
#pragma omp parallel shared(total, named_total, singles, masters, max_seen)
    {
        int seed;
#pragma omp single copyprivate(seed)
        {
            seed = 1234;
            singles++;
        }
#pragma omp critical
        {
            total += 1;
            if (seed == 1234)
                broadcast++;
        }
#pragma omp master
        masters++;
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < 1000; i++) {
#pragma omp critical(update_max)
            {
                if (i * 7 % 1000 > max_seen)
                    max_seen = i * 7 % 1000;
                named_total += i;
            }
        }
    }
    printf("everyone saw the broadcast: %d, singles=%d masters=%d\n", broadcast == total, singles, masters);
    printf("named critical: total=%d max=%d\n", named_total, max_seen);

    char order[64];
    int pos = 0;
#pragma omp parallel for ordered schedule(dynamic, 1)
    for (int i = 0; i < 26; i++) {
        char c = (char)('a' + (i * 5) % 26); /* computed in parallel */
#pragma omp ordered
        order[pos++] = c; /* appended in iteration order */
    }
    order[pos] = '\0';
    printf("ordered: %s\n", order);

    int base = 100, last = -1;
#pragma omp parallel for firstprivate(base) lastprivate(last)
    for (int i = 0; i < 50; i++) {
        last = base + i; /* each thread reads its own copy of 100 */
    }
    printf("lastprivate: %d\n", last);

    int flags[4] = {0};
#pragma omp parallel
    {
#pragma omp sections nowait
        {
#pragma omp section
            flags[0] = 1;
#pragma omp section
            flags[1] = 2;
        }
#pragma omp sections
        {
#pragma omp section
            flags[2] = 3;
#pragma omp section
            flags[3] = 4;
        }
    }
    printf("flags: %d %d %d %d\n", flags[0], flags[1], flags[2], flags[3]);
    return 0;
}
