/* Reductions over array sections and whole arrays: a per-bin histogram reduction(+ : hist[0:B])
 * instead of atomics, and a max reduction over a small array. */
#include <stdio.h>

#define N 10000
#define B 16

int main(void)
{
    int hist[B] = {0};
#pragma omp target teams distribute parallel for reduction(+ : hist[0:B])
    for (int i = 0; i < N; i++)
        hist[(i * 7 + i / 13) % B] += 1;
    long wsum = 0, total = 0;
    for (int b = 0; b < B; b++) {
        total += hist[b];
        wsum += (long)hist[b] * (b + 1);
    }
    printf("total=%ld wsum=%ld hist[0]=%d hist[15]=%d\n", total, wsum, hist[0], hist[B - 1]);

    double mx[4] = {-1e9, -1e9, -1e9, -1e9};
#pragma omp target teams distribute parallel for reduction(max : mx)
    for (int i = 0; i < N; i++) {
        double v = (double)((i * 31) % 1000) / (1 + i % 4);
        if (v > mx[i % 4])
            mx[i % 4] = v;
    }
    printf("mx=%.6f %.6f %.6f %.6f\n", mx[0], mx[1], mx[2], mx[3]);
    return 0;
}
