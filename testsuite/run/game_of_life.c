/* Conway's game of life on a 64x64 torus, 16 generations, double-buffered in a target data
 * region (the buffers swap by pointer on the host); population per 4 generations. */
#include <stdio.h>

#define N 64
#define GENS 16

static unsigned char g0[N * N], g1[N * N];

int main(void)
{
    for (int i = 0; i < N * N; i++) {
        unsigned h = (unsigned)i * 0x45d9f3bu;
        h ^= h >> 16;
        h *= 0x45d9f3bu;
        h ^= h >> 16;
        g0[i] = h % 8 < 3;
    }
    unsigned char *cur = g0, *nxt = g1;
#pragma omp target data map(tofrom : g0, g1)
    for (int gen = 0; gen < GENS; gen++) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : cur[0:N * N], \
                                                                        nxt[0:N * N])
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                int n = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        if (dx || dy)
                            n += cur[((y + dy + N) % N) * N + (x + dx + N) % N];
                unsigned char alive = cur[y * N + x];
                nxt[y * N + x] = (n == 3) || (alive && n == 2);
            }
        unsigned char *t = cur;
        cur = nxt;
        nxt = t;
        if (gen % 4 == 3) {
#pragma omp target update from(cur[0:N * N])
            int pop = 0;
            for (int i = 0; i < N * N; i++)
                pop += cur[i];
            printf("gen %d population=%d\n", gen + 1, pop);
        }
    }
    long h = 0;
    for (int i = 0; i < N * N; i++)
        h = h * 31 % 1000000007 + cur[i] * (i + 1);
    printf("hash=%ld\n", h);
    return 0;
}
