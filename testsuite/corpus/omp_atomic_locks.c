/* Host OpenMP atomics and locks: atomic update/read/write/capture, a histogram with atomic
 * increments, simple and nested locks guarding a shared list, and flush-free result checks. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 50000

struct item { int value; struct item *next; };

int main(void)
{
    long counter = 0;
    int hist[16] = {0};
    double fsum = 0.0;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
#pragma omp atomic
        counter += 2;
#pragma omp atomic update
        hist[(i * 7) % 16]++;
        if (i % 1000 == 0) {
#pragma omp atomic
            fsum += 0.25;
        }
    }
    printf("counter=%ld fsum=%.6g\nhist:", counter, fsum);
    for (int k = 0; k < 16; k++)
        printf(" %d", hist[k]);
    printf("\n");

    /* capture hands out unique tickets: every ticket is taken exactly once */
    int next_ticket = 0;
    static int owner[1000];
#pragma omp parallel for
    for (int i = 0; i < 1000; i++) {
        int mine;
#pragma omp atomic capture
        mine = next_ticket++;
        owner[mine] += 1;
    }
    int unique = 1;
    for (int i = 0; i < 1000; i++)
        unique &= owner[i] == 1;
    int final_ticket;
#pragma omp atomic read
    final_ticket = next_ticket;
    printf("tickets unique=%d final=%d\n", unique, final_ticket);

    int flag = 0;
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp atomic write
            flag = 7;
        }
    }
    printf("atomic write flag=%d\n", flag);

    omp_lock_t lock;
    omp_init_lock(&lock);
    struct item *list = NULL;
#pragma omp parallel for
    for (int i = 0; i < 500; i++) {
        struct item *it = malloc(sizeof *it);
        it->value = i;
        omp_set_lock(&lock);
        it->next = list;
        list = it;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    long sum = 0;
    int count = 0;
    while (list) {
        struct item *it = list;
        list = list->next;
        sum += it->value;
        count++;
        free(it);
    }
    printf("locked list: count=%d sum=%ld\n", count, sum);

    omp_nest_lock_t nlock;
    omp_init_nest_lock(&nlock);
    int depth_total = 0;
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        omp_set_nest_lock(&nlock);
        omp_set_nest_lock(&nlock); /* re-entry by the owning thread */
        depth_total += 1;
        omp_unset_nest_lock(&nlock);
        omp_unset_nest_lock(&nlock);
    }
    omp_destroy_nest_lock(&nlock);
    printf("nested lock total=%d, test_lock on fresh lock: ", depth_total);
    omp_lock_t t;
    omp_init_lock(&t);
    int got = omp_test_lock(&t);
    printf("%d\n", got);
    if (got)
        omp_unset_lock(&t);
    omp_destroy_lock(&t);
    return 0;
}
