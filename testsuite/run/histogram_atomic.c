/* Histogram with `atomic update` on int and long bins, values from an integer hash so the
 * counts are exact whatever the interleaving. */
#include <stdio.h>

#define N 10000
#define BINS 32

int main(void)
{
    int hist[BINS] = {0};
    long weighted[BINS] = {0};
#pragma omp target teams distribute parallel for map(tofrom : hist, weighted)
    for (int i = 0; i < N; i++) {
        unsigned h = (unsigned)i * 2654435761u;
        h ^= h >> 15;
        int b = (int)(h % BINS);
#pragma omp atomic
        hist[b]++;
#pragma omp atomic update
        weighted[b] += (long)i;
    }
    long total = 0, wtotal = 0;
    for (int b = 0; b < BINS; b++) {
        total += hist[b];
        wtotal += weighted[b];
    }
    printf("total=%ld wtotal=%ld\n", total, wtotal);
    for (int b = 0; b < BINS; b += 4)
        printf("bin %d: %d %ld\n", b, hist[b], weighted[b]);
    return 0;
}
