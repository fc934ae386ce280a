/* Blocked parallel prefix sum: per-block sums in one kernel, a serial `target` scan of the block
 * sums, and a kernel that scans within each block with its offset; checked against the host. */
#include <stdio.h>

#define N 10000
#define BS 128
#define NBLK ((N + BS - 1) / BS)

static long in[N], out[N], bsum[NBLK];

int main(void)
{
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 101 - 50;
#pragma omp target data map(to : in) map(from : out) map(alloc : bsum)
    {
#pragma omp target teams distribute parallel for
        for (int b = 0; b < NBLK; b++) {
            long s = 0;
            for (int i = b * BS; i < (b + 1) * BS && i < N; i++)
                s += in[i];
            bsum[b] = s;
        }
#pragma omp target
        {
            long run = 0;
            for (int b = 0; b < NBLK; b++) {
                long t = bsum[b];
                bsum[b] = run; /* exclusive scan of the block sums */
                run += t;
            }
        }
#pragma omp target teams distribute parallel for
        for (int b = 0; b < NBLK; b++) {
            long run = bsum[b];
            for (int i = b * BS; i < (b + 1) * BS && i < N; i++) {
                run += in[i];
                out[i] = run;
            }
        }
    }
    long ref = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        ref += in[i];
        bad += out[i] != ref;
    }
    printf("bad=%d out[0]=%ld out[5000]=%ld out[9999]=%ld\n", bad, out[0], out[5000], out[N - 1]);
    return 0;
}
