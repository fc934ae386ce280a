/* Must stay on the host: the loop takes an OpenMP lock (omp_set_lock) that host code also takes
 * before and after the loop, to update a shared histogram; a lock lives in host memory and its
 * holders are host threads. Counts are exact integers. */
#include <omp.h>
#include <stdio.h>

#define N 5000
#define BINS 8

static omp_lock_t lock;
static long hist[BINS];

static void add_sample(int v)
{
    omp_set_lock(&lock);
    hist[v % BINS]++;
    omp_unset_lock(&lock);
}

int main(void)
{
    omp_init_lock(&lock);
    add_sample(3); /* host code uses the same lock */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int v = (i * i + 7) % 1013;
        omp_set_lock(&lock);
        hist[v % BINS]++;
        omp_unset_lock(&lock);
    }
    add_sample(5);
    omp_destroy_lock(&lock);
    long total = 0;
    for (int b = 0; b < BINS; b++) {
        printf("bin %d: %ld\n", b, hist[b]);
        total += hist[b];
    }
    printf("total=%ld\n", total);
    return 0;
}
