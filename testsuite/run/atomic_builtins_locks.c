/* GNU __atomic_* / __sync_* builtins, C11 <stdatomic.h>, _Atomic objects and the OpenMP lock
 * API inside target regions: a histogram, a maximum by compare-exchange loop, counters of
 * 1, 2, 4 and 8 bytes, a spin lock from test_and_set, lock-protected and nest-lock sums. */
#include <stdio.h>
#include <stdatomic.h>
#include <omp.h>

#define N 2000
#define BINS 16
#define NL 256 /* contended lock iterations: spinning is slow on the emulator */

#pragma omp declare target
omp_lock_t lock;
omp_nest_lock_t nlock;
#pragma omp end declare target

static int data[N];
/* OpenMP does not map _Atomic objects: plain ones, accessed through _Atomic pointers */
static int c11_hist[BINS];
static long obj_sum;
static unsigned short obj_count;

int main(void)
{
    for (int i = 0; i < N; i++)
        data[i] = (i * 7919 + 13) % 1009;
    int hist[BINS] = {0};
    int maxv = -1, minv = 1 << 30;
    long sync_sum = 0, flag_sum = 0;
    unsigned char bytes[4] = {0};
    short halves[2] = {0};
    unsigned long long bits = 0;
    int swaps = 0, slot[64] = {0};
    char flag = 0;

#pragma omp target teams distribute parallel for map(to: data) \
    map(tofrom: hist, maxv, minv, sync_sum, bytes, halves, bits, swaps, slot)
    for (int i = 0; i < N; i++) {
        int v = data[i];
        __atomic_fetch_add(&hist[v % BINS], 1, __ATOMIC_RELAXED);
        int cur = __atomic_load_n(&maxv, __ATOMIC_ACQUIRE);
        while (v > cur && !__atomic_compare_exchange_n(&maxv, &cur, v, 1, __ATOMIC_ACQ_REL,
                                                       __ATOMIC_ACQUIRE))
            ;
        int m = minv;
        int seen;
        while (v < m && (seen = __sync_val_compare_and_swap(&minv, m, v)) != m)
            m = seen;
        __sync_fetch_and_add(&sync_sum, (long)v);
        __atomic_add_fetch(&bytes[i % 4], 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_sub(&halves[i % 2], 3, __ATOMIC_RELAXED);
        __atomic_fetch_or(&bits, 1ull << (v % 61), __ATOMIC_RELAXED);
        if (v % 7 == 0)
            __sync_add_and_fetch(&swaps, __atomic_exchange_n(&slot[i % 64], v, __ATOMIC_RELAXED) >= 0);
    }

#pragma omp target
    {
        omp_init_lock(&lock);
        omp_init_nest_lock(&nlock);
    }
    long locked_sum = 0, nested_sum = 0;
    int tested = 0;
#pragma omp target teams distribute parallel for map(to: data) \
    map(tofrom: locked_sum, nested_sum, tested, flag, flag_sum)
    for (int i = 0; i < NL; i++) {
        while (__atomic_test_and_set(&flag, __ATOMIC_ACQUIRE))
            ;
        flag_sum += data[i] % 5;
        __atomic_clear(&flag, __ATOMIC_RELEASE);
        omp_set_lock(&lock);
        locked_sum += data[i];
        omp_unset_lock(&lock);
        omp_set_nest_lock(&nlock);
        if (omp_test_nest_lock(&nlock) == 2)
            nested_sum += data[i] % 10;
        omp_unset_nest_lock(&nlock);
        omp_unset_nest_lock(&nlock);
        while (!omp_test_lock(&lock))
            ;
        tested++;
        omp_unset_lock(&lock);
    }
#pragma omp target
    {
        omp_destroy_lock(&lock);
        omp_destroy_nest_lock(&nlock);
    }

#pragma omp target teams distribute parallel for map(to: data) map(tofrom: c11_hist, obj_sum, obj_count)
    for (int i = 0; i < N; i++) {
        atomic_int *h = (atomic_int *)c11_hist;
        _Atomic long *s = (_Atomic long *)&obj_sum;
        _Atomic unsigned short *c = (_Atomic unsigned short *)&obj_count;
        atomic_fetch_add_explicit(&h[data[i] % BINS], 1, memory_order_relaxed);
        *s += data[i];
        (*c)++;
    }

    printf("hist:");
    for (int b = 0; b < BINS; b++)
        printf(" %d", hist[b]);
    printf("\nmax=%d min=%d sync_sum=%ld flag_sum=%ld swaps=%d\n", maxv, minv, sync_sum,
           flag_sum, swaps);
    printf("bytes=%d %d %d %d halves=%d %d bits=%#llx\n", bytes[0], bytes[1], bytes[2], bytes[3],
           halves[0], halves[1], bits);
    printf("locked_sum=%ld nested_sum=%ld tested=%d\n", locked_sum, nested_sum, tested);
    int same = 1;
    for (int b = 0; b < BINS; b++)
        same &= c11_hist[b] == hist[b];
    printf("c11 hist same=%d obj_sum=%ld obj_count=%u\n", same, obj_sum, (unsigned)obj_count);
    return 0;
}
