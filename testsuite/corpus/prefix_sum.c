/* Prefix sums: sequential inclusive/exclusive scans, a two-pass blocked parallel scan with
 * OpenMP (per-block sums, then offsets), and segmented scan; results are cross-checked. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <omp.h>

#define N 10007
#define NBLOCKS 16

static void inclusive_scan(const long *in, long *out, size_t n)
{
    long acc = 0;
    for (size_t i = 0; i < n; i++)
        out[i] = acc += in[i];
}

static void exclusive_scan(const long *in, long *out, size_t n)
{
    long acc = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = acc;
        acc += in[i];
    }
}

static void blocked_scan(const long *in, long *out, size_t n)
{
    long sums[NBLOCKS + 1] = {0};
    size_t chunk = (n + NBLOCKS - 1) / NBLOCKS;
#pragma omp parallel for
    for (int b = 0; b < NBLOCKS; b++) {
        size_t lo = (size_t)b * chunk, hi = lo + chunk < n ? lo + chunk : n;
        long acc = 0;
        for (size_t i = lo; i < hi; i++)
            out[i] = acc += in[i];
        sums[b + 1] = acc;
    }
    for (int b = 1; b <= NBLOCKS; b++)
        sums[b] += sums[b - 1];
#pragma omp parallel for
    for (int b = 1; b < NBLOCKS; b++) {
        size_t lo = (size_t)b * chunk, hi = lo + chunk < n ? lo + chunk : n;
        for (size_t i = lo; i < hi; i++)
            out[i] += sums[b];
    }
}

/* scan that restarts wherever flag[i] is set */
static void segmented_scan(const long *in, const unsigned char *flag, long *out, size_t n)
{
    long acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (flag[i])
            acc = 0;
        out[i] = acc += in[i];
    }
}

int main(void)
{
    long *in = malloc(N * sizeof *in), *a = malloc(N * sizeof *a);
    long *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    unsigned char *flag = malloc(N);
    if (!in || !a || !b || !c || !flag)
        return 1;
    for (size_t i = 0; i < N; i++) {
        in[i] = (long)((i * 2654435761u) % 1000) - 500;
        flag[i] = i % 1000 == 0;
    }
    inclusive_scan(in, a, N);
    blocked_scan(in, b, N);
    exclusive_scan(in, c, N);
    size_t mismatches = 0;
    for (size_t i = 0; i < N; i++) {
        if (a[i] != b[i])
            mismatches++;
        if (c[i] + in[i] != a[i])
            mismatches++;
    }
    printf("total=%ld mismatches=%zu\n", a[N - 1], mismatches);
    printf("a[0]=%ld a[100]=%ld a[5000]=%ld\n", a[0], a[100], a[5000]);
    segmented_scan(in, flag, c, N);
    long seg_max = c[0];
    for (size_t i = 1; i < N; i++)
        if (c[i] > seg_max)
            seg_max = c[i];
    printf("segment ends:");
    for (size_t i = 999; i < N; i += 1000)
        printf(" %ld", c[i]);
    printf("\nsegmented max=%ld\n", seg_max);
    free(in);
    free(a);
    free(b);
    free(c);
    free(flag);
    return 0;
}
