/* The allocation functions in kernels: per-iteration vectors grown with realloc (contents
 * kept), aligned_alloc and posix_memalign alignments, calloc zeroing, realloc(p, 0). */
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void)
{
    long sums[N];
    int flags[N];
#pragma omp target teams distribute parallel for map(from : sums, flags)
    for (int i = 0; i < N; i++) {
        int cap = 1, len = 0;
        long *v = malloc(sizeof *v);
        int ok = v != NULL;
        for (int k = 0; k < 40 + i; k++) {
            if (len == cap) {
                cap *= 2;
                long *w = realloc(v, cap * sizeof *w);
                ok &= w != NULL;
                v = w;
            }
            v[len++] = (long)k * (i + 1);
        }
        long s = 0;
        for (int k = 0; k < len; k++)
            s += v[k];
        v = realloc(v, 4 * sizeof *v); /* shrinking keeps the first elements */
        s += v[3];
        free(v);
        double *a = aligned_alloc(64, 8 * sizeof(double));
        ok &= a != NULL && (unsigned long)a % 64 == 0;
        free(a);
        void *pm = NULL;
        ok &= posix_memalign(&pm, 128, 24) == 0 && (unsigned long)pm % 128 == 0;
        free(pm);
        int *z = calloc(10, sizeof *z);
        for (int k = 0; k < 10; k++)
            ok &= z[k] == 0;
        ok &= realloc(z, 0) == NULL;
        sums[i] = s;
        flags[i] = ok;
    }
    long total = 0;
    int all = 1;
    for (int i = 0; i < N; i++) {
        total += sums[i];
        all &= flags[i];
    }
    printf("sums: %ld %ld %ld, total %ld, checks %s\n", sums[0], sums[1], sums[N - 1], total,
           all ? "ok" : "FAILED");
    return 0;
}
