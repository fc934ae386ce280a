/* Atomics and critical sections in target regions: a device histogram with atomic update,
 * atomic capture handing out unique slots (a compaction), atomic min/max via compare loops
 * in critical, and float atomic adds compared with a tolerance-free integer check. */
#include <stdio.h>
#include <omp.h>

#define N 20000
#define BINS 32

int main(void)
{
    static unsigned data[N];
    unsigned s = 12345u;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        data[i] = s >> 8;
    }

    int hist[BINS] = {0};
#pragma omp target teams distribute parallel for map(to : data) map(tofrom : hist)
    for (int i = 0; i < N; i++) {
        int b = (int)(data[i] % BINS);
#pragma omp atomic update
        hist[b]++;
    }
    int total = 0, fullest = 0;
    for (int b = 0; b < BINS; b++) {
        total += hist[b];
        if (hist[b] > hist[fullest])
            fullest = b;
    }
    printf("histogram total=%d fullest bin=%d (%d) bin0=%d\n", total, fullest, hist[fullest], hist[0]);

    /* compaction: positions are handed out by capture, so the order is arbitrary, but the set
     * of selected values is not: sum and count are printed */
    static unsigned picked[N];
    int next = 0;
#pragma omp target teams distribute parallel for map(to : data) map(from : picked) map(tofrom : next)
    for (int i = 0; i < N; i++) {
        if (data[i] % 7 == 0) {
            int slot;
#pragma omp atomic capture
            slot = next++;
            picked[slot] = data[i];
        }
    }
    unsigned long long sum = 0;
    for (int i = 0; i < next; i++)
        sum += picked[i];
    printf("compacted %d multiples of 7, sum=%llu\n", next, sum);

    unsigned lo = ~0u, hi = 0;
#pragma omp target teams distribute parallel for map(to : data) map(tofrom : lo, hi)
    for (int i = 0; i < N; i++) {
        unsigned v = data[i];
#pragma omp critical
        {
            if (v < lo)
                lo = v;
            if (v > hi)
                hi = v;
        }
    }
    printf("min=%u max=%u\n", lo, hi);

    /* float sums of exactly representable values: the result is exact in any order */
    double acc = 0.0;
#pragma omp target teams distribute parallel for map(tofrom : acc)
    for (int i = 0; i < 4096; i++) {
#pragma omp atomic
        acc += 0.125 * (i % 8);
    }
    printf("atomic double sum=%.6g\n", acc);

    long long wide = 0;
#pragma omp target map(tofrom : wide)
#pragma omp parallel for
    for (int i = 0; i < 1000; i++) {
#pragma omp atomic
        wide += (long long)i * 1000003;
    }
    printf("64-bit atomic sum=%lld\n", wide);
    return 0;
}
