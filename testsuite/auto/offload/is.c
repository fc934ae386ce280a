/* In the shape of NPB IS: bucket sort of integer keys. Counting is a parallel loop over buckets,
 * each scanning all keys (no atomics needed); the prefix sum over bucket counts is sequential;
 * scattering is again parallel over buckets (each bucket fills its own slice in key order), then
 * each bucket is sorted by insertion in parallel and the ranks of a few test keys are checked. */
#include <stdio.h>

#define NKEYS 2048
#define NBUCKETS 128
#define MAXKEY 8192
#define ROUNDS 2

static int keys[NKEYS];
static int count[NBUCKETS];
static int start[NBUCKETS + 1];
static int sorted[NKEYS];

static int bucket_of(int key)
{
    return key / (MAXKEY / NBUCKETS);
}

int main(void)
{
    /* keys: sum of four LCG draws, roughly Gaussian like IS's generator */
    unsigned s = 314159265u;
    for (int i = 0; i < NKEYS; i++) {
        int k = 0;
        for (int d = 0; d < 4; d++) {
            s = s * 1103515245u + 12345u;
            k += (int)((s >> 8) % (MAXKEY / 4));
        }
        keys[i] = k;
    }
    long checksum = 0;
    for (int round = 0; round < ROUNDS; round++) {
        /* IS modifies two keys per iteration */
        keys[round] = round;
        keys[round + ROUNDS] = MAXKEY - 1 - round;
#pragma omp parallel for schedule(static)
        for (int b = 0; b < NBUCKETS; b++) {
            int c = 0;
            for (int i = 0; i < NKEYS; i++)
                c += bucket_of(keys[i]) == b;
            count[b] = c;
        }
        start[0] = 0;
        for (int b = 0; b < NBUCKETS; b++)
            start[b + 1] = start[b] + count[b];
#pragma omp parallel for schedule(dynamic, 4)
        for (int b = 0; b < NBUCKETS; b++) {
            int pos = start[b];
            for (int i = 0; i < NKEYS; i++)
                if (bucket_of(keys[i]) == b)
                    sorted[pos++] = keys[i];
        }
#pragma omp parallel for schedule(dynamic)
        for (int b = 0; b < NBUCKETS; b++)
            for (int i = start[b] + 1; i < start[b + 1]; i++) {
                int v = sorted[i], j = i - 1;
                while (j >= start[b] && sorted[j] > v) {
                    sorted[j + 1] = sorted[j];
                    j--;
                }
                sorted[j + 1] = v;
            }
        int unsorted = 0;
        long weighted = 0;
#pragma omp parallel for reduction(+ : unsorted, weighted)
        for (int i = 0; i < NKEYS; i++) {
            if (i > 0 && sorted[i - 1] > sorted[i])
                unsorted++;
            weighted += (long)sorted[i] * (i % 13 + 1);
        }
        int maxcount = 0;
        for (int b = 0; b < NBUCKETS; b++)
            maxcount = count[b] > maxcount ? count[b] : maxcount;
        printf("round %d: out-of-order=%d max bucket=%d rank[%d]=%d rank[%d]=%d weighted=%ld\n",
               round, unsorted, maxcount, keys[7], start[bucket_of(keys[7])], keys[100],
               start[bucket_of(keys[100])], weighted);
        checksum += weighted;
    }
    printf("min=%d median=%d max=%d checksum=%ld\n", sorted[0], sorted[NKEYS / 2],
           sorted[NKEYS - 1], checksum);
    return 0;
}
