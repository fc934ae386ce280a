/* Stream compaction with `atomic capture`: the output order depends on the schedule, so only
 * order-independent results are printed (count, sum, xor, and the sorted head). */
#include <stdio.h>
#include <stdlib.h>

#define N 10000

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (int)(((unsigned)i * 2654435761u) >> 16) % 1000;
    int count = 0;
#pragma omp target teams distribute parallel for map(to : in) map(from : out) map(tofrom : count)
    for (int i = 0; i < N; i++) {
        if (in[i] % 7 == 3) {
            int slot;
#pragma omp atomic capture
            slot = count++;
            out[slot] = in[i] * 10 + i % 10;
        }
    }
    long sum = 0;
    int x = 0;
    for (int k = 0; k < count; k++) {
        sum += out[k];
        x ^= out[k];
    }
    qsort(out, (size_t)count, sizeof *out, cmp_int);
    printf("count=%d sum=%ld xor=%d head=%d %d %d tail=%d\n", count, sum, x, out[0], out[1],
           out[2], out[count - 1]);
    return 0;
}
