/* Monte Carlo pi and a random walk with a per-sample 64-bit hash generator (splitmix64), so each
 * sample's stream depends only on its index; hits are integer counts. */
#include <stdio.h>
#include <stdint.h>

#define SAMPLES 20000
#define WALKERS 512

#pragma omp declare target
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
#pragma omp end declare target

int main(void)
{
    long hits = 0;
#pragma omp target teams distribute parallel for reduction(+ : hits)
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t st = (uint64_t)i * 7919;
        uint32_t x = (uint32_t)(splitmix64(&st) >> 40); /* 24-bit coordinates: exact */
        uint32_t y = (uint32_t)(splitmix64(&st) >> 40);
        uint64_t r2 = (uint64_t)x * x + (uint64_t)y * y;
        hits += r2 < ((uint64_t)1 << 48);
    }
    printf("hits=%ld pi~%.6f\n", hits, 4.0 * hits / SAMPLES);

    static int endpos[WALKERS];
#pragma omp target teams distribute parallel for map(from : endpos)
    for (int w = 0; w < WALKERS; w++) {
        uint64_t st = 12345u + (uint64_t)w;
        int pos = 0;
        for (int s = 0; s < 200; s++)
            pos += (splitmix64(&st) & 1) ? 1 : -1;
        endpos[w] = pos;
    }
    long sum = 0, sq = 0;
    int far = 0;
    for (int w = 0; w < WALKERS; w++) {
        sum += endpos[w];
        sq += (long)endpos[w] * endpos[w];
        far += endpos[w] > 20 || endpos[w] < -20;
    }
    printf("walk sum=%ld sumsq=%ld far=%d endpos[7]=%d\n", sum, sq, far, endpos[7]);
    return 0;
}
