/* Must stay on the host: the loop writes its partial results into a slot indexed by
 * omp_get_thread_num(), so where results land depends on the host's threads. Only the sum over
 * all slots and the number of items, independent of the thread count, are printed. */
#include <omp.h>
#include <stdio.h>

#define N 10000
#define MAXSLOTS 256

int main(void)
{
    static long slot_sum[MAXSLOTS];
    static int slot_items[MAXSLOTS];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
        int t = omp_get_thread_num() % MAXSLOTS;
        slot_sum[t] += (long)(i % 97) * (i % 13);
        slot_items[t]++;
    }
    long total = 0, items = 0;
    for (int t = 0; t < MAXSLOTS; t++) {
        total += slot_sum[t];
        items += slot_items[t];
    }
    printf("items=%ld total=%ld\n", items, total);
    return 0;
}
