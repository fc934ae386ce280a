/* hotspot, expert form: the computation of hotspot_naive.c with hand-written data movement.
 * One data region around the step loop: the power map `to`, the first grid `to`, the second
 * `alloc` (written by the first step before anything reads it); after the swap the probe row is
 * brought back with `target update from(t[ROW*N:N])`, and the final grid once at the end.
 * Kernels inside the region use the mapped pointers (implicit zero-length sections find them).
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define N 160
#define STEPS 20
#define PROBE_EVERY 5
#define ROW 100
#define AMBIENT (80 << 10)

int main(void)
{
    int *t = malloc(N * N * sizeof *t), *u = malloc(N * N * sizeof *u);
    int *p = malloc(N * N * sizeof *p);
    for (int i = 0; i < N * N; i++) {
        t[i] = AMBIENT + ((i * 37) % 1013) * 8;
        u[i] = 0;
        p[i] = ((i / N) % 16 < 4 && (i % N) % 32 < 8) ? 4096 + (i % 7) * 64 : (i % 5) * 16;
    }
#pragma omp target data map(to : t[0:N * N], p[0:N * N]) map(alloc : u[0:N * N])
    {
        for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for collapse(2)
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) {
                    int c = t[i * N + j];
                    int n = i > 0 ? t[(i - 1) * N + j] : c;
                    int so = i < N - 1 ? t[(i + 1) * N + j] : c;
                    int w = j > 0 ? t[i * N + j - 1] : c;
                    int e = j < N - 1 ? t[i * N + j + 1] : c;
                    u[i * N + j] = c + (n + so + w + e - 4 * c) / 8 + p[i * N + j] / 16 - (c - AMBIENT) / 64;
                }
            int *tmp = t;
            t = u;
            u = tmp;
            if ((s + 1) % PROBE_EVERY == 0) {
#pragma omp target update from(t[ROW * N:N])
                long row = 0;
                for (int j = 0; j < N; j++)
                    row += t[ROW * N + j];
                printf("step %d row %d sum %ld\n", s + 1, ROW, row);
            }
        }
#pragma omp target update from(t[0:N * N])
    }
    long sum = 0, weighted = 0;
    int hottest = 0;
    for (int i = 0; i < N * N; i++) {
        sum += t[i];
        weighted = (weighted * 31 + t[i]) % 1000000007;
        hottest = t[i] > hottest ? t[i] : hottest;
    }
    printf("hotspot %dx%d steps %d: sum %ld hash %ld max %d\n", N, N, STEPS, sum, weighted, hottest);
    free(t);
    free(u);
    free(p);
    return 0;
}
