/* hotspot, naive form. Rodinia's HotSpot shape (OMPDart's evaluation): a 2-D chip temperature
 * grid stepped in time from a power map by a 5-point stencil, in fixed point so that every
 * build computes the same bits. Time-stepped: STEPS kernels, the host swaps the two grids after
 * each and prints the sum of one row every PROBE_EVERY steps.
 *
 * What a new user writes: the kernel maps both grids and the power map `tofrom` on every step.
 * A planner should: hoist the maps out of the step loop (one data region around it), map the
 * power map `to` only (never written), follow the pointer swap (both grids stay mapped, the
 * one written first needs no copy in: `alloc`), put a `target update from` of the probed row
 * only (`t[ROW*N:N]`) inside the `if` of line 47, before the host
 * loop that reads it (line 50), and copy back only the grid the final checksum
 * reads (line 57), once, after the loop.
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
    for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : t[0:N * N], u[0:N * N], p[0:N * N])
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
            long row = 0;
            for (int j = 0; j < N; j++)
                row += t[ROW * N + j];
            printf("step %d row %d sum %ld\n", s + 1, ROW, row);
        }
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
