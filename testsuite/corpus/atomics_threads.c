/* C11 <stdatomic.h> with POSIX threads: atomic counters (fetch_add, relaxed and seq_cst),
 * a compare-exchange maximum, an atomic_flag spinlock, and release/acquire publication. */
#include <stdio.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdint.h>
#include <stdbool.h>

#define THREADS 4
#define ITERS 20000

static atomic_long counter = 0;
static atomic_uint relaxed_counter = 0;
static atomic_int maximum = INT32_MIN;
static atomic_flag lock = ATOMIC_FLAG_INIT;
static long protected_sum; /* guarded by the spinlock */
static _Atomic(uint64_t) bits = 0;

static int payload;
static atomic_bool ready = false;

static void update_max(int v)
{
    int cur = atomic_load(&maximum);
    while (v > cur && !atomic_compare_exchange_weak(&maximum, &cur, v))
        ; /* cur was reloaded by the failed exchange */
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int i = 0; i < ITERS; i++) {
        atomic_fetch_add(&counter, 1);
        atomic_fetch_add_explicit(&relaxed_counter, 2u, memory_order_relaxed);
        update_max((i * 7919 + id * 104729) % 1000003);
        while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
            ;
        protected_sum += i % 10;
        atomic_flag_clear_explicit(&lock, memory_order_release);
    }
    atomic_fetch_or(&bits, UINT64_C(1) << (id * 8));
    return NULL;
}

static void *producer(void *arg)
{
    (void)arg;
    payload = 42;
    atomic_store_explicit(&ready, true, memory_order_release);
    return NULL;
}

static void *consumer(void *arg)
{
    int *out = arg;
    while (!atomic_load_explicit(&ready, memory_order_acquire))
        ;
    *out = payload; /* visible: acquire pairs with the producer's release */
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) != 0)
            return 1;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("counter=%ld relaxed=%u\n", atomic_load(&counter), atomic_load(&relaxed_counter));
    printf("maximum=%d protected_sum=%ld bits=%#llx\n", atomic_load(&maximum), protected_sum,
           (unsigned long long)atomic_load(&bits));

    int seen = 0;
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, &seen);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("consumer saw %d\n", seen);

    atomic_int x = 5;
    int expected = 5;
    int ok1 = atomic_compare_exchange_strong(&x, &expected, 9);
    int ok2 = atomic_compare_exchange_strong(&x, &expected, 11);
    printf("cas: %d %d, x=%d expected=%d, exchange old=%d\n", ok1, ok2, atomic_load(&x), expected,
           atomic_exchange(&x, 0));
    printf("lock-free int: %d, long: %d\n", ATOMIC_INT_LOCK_FREE, ATOMIC_LONG_LOCK_FREE);
    atomic_thread_fence(memory_order_seq_cst);
    return 0;
}
