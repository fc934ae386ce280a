/* OpenMP 5.1 `atomic compare`: a running maximum and minimum kept with conditional atomic
 * updates (if-statement and conditional-expression forms), and a compare-and-swap claim flag. */
#include <stdio.h>

#define N 6000

int main(void)
{
    int mx = -1, mn = 1 << 30;
    long lmax = 0;
    static int owner[64];
    for (int k = 0; k < 64; k++)
        owner[k] = -1;
#pragma omp target teams distribute parallel for map(tofrom : mx, mn, lmax, owner)
    for (int i = 0; i < N; i++) {
        int v = (int)(((unsigned)i * 2654435761u) >> 12) % 100000;
#pragma omp atomic compare
        if (mx < v) {
            mx = v;
        }
#pragma omp atomic compare
        mn = v < mn ? v : mn;
        long w = (long)v * (i % 7);
#pragma omp atomic compare
        if (lmax < w) {
            lmax = w;
        }
        /* claim slot i % 64 only if still free: every slot ends claimed by some i */
#pragma omp atomic compare
        if (owner[i % 64] == -1) {
            owner[i % 64] = i;
        }
    }
    int claimed = 0, consistent = 1;
    for (int k = 0; k < 64; k++) {
        claimed += owner[k] >= 0;
        consistent &= owner[k] % 64 == k;
    }
    printf("max=%d min=%d lmax=%ld claimed=%d consistent=%d\n", mx, mn, lmax, claimed, consistent);
    return 0;
}
