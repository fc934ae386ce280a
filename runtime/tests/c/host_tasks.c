/* The OpenMP 5.1/5.2 routines of host_task.rs, linked with libgomp: explicit tasks seen
 * through the wrapped GOMP_task/GOMP_taskloop (firstprivate copies, a VLA's copy function,
 * taskloop bounds and reductions still right), and asynchronous copies ordered by depend
 * objects. Prints one line per check. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "ompcc_rt.h"

#define N 1000

static long src[N], mid[N], dst[N];

int main(void)
{
    int n = 5, bad = 0;
    /* firstprivate scalars and a VLA (gcc gives the task a copy function) */
    {
        int vla[n];
        for (int i = 0; i < n; i++)
            vla[i] = i * i;
        int got = -1, explicit_ = -1;
#pragma omp parallel num_threads(3)
#pragma omp single
        {
#pragma omp task firstprivate(vla, n) shared(got, explicit_)
            {
                got = vla[n - 1];
                explicit_ = omp_in_explicit_task();
            }
#pragma omp taskwait
        }
        printf("vla task: got=%d explicit=%d\n", got, explicit_);
    }
    /* taskloop: every iteration once, in an explicit task, reductions combined */
    {
        long sum = 0;
        int count = 0, outside = 0;
#pragma omp parallel num_threads(3) reduction(+ : outside)
        {
            outside += omp_in_explicit_task();
#pragma omp single
#pragma omp taskloop reduction(+ : sum, count) grainsize(7)
            for (int i = 0; i < N; i++) {
                sum += i;
                count += omp_in_explicit_task();
            }
        }
        unsigned long long usum = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop reduction(+ : usum) num_tasks(5)
        for (unsigned long long u = 10; u < 20000000000ULL; u += 1000000000ULL)
            usum += u / 1000000000ULL;
        printf("taskloop: sum=%ld count=%d outside=%d usum=%llu\n", sum, count, outside, usum);
    }
    /* asynchronous copies through the device, ordered by depend objects and task depends */
    int dev = omp_get_default_device(), host = omp_get_initial_device();
    long *d = omp_target_alloc(sizeof src, dev);
    long total = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    {
#pragma omp task depend(out : src)
        for (int i = 0; i < N; i++)
            src[i] = 3 * i;
        omp_depend_t o[2];
#pragma omp depobj(o[0]) depend(in : src)
#pragma omp depobj(o[1]) depend(out : mid)
        bad |= omp_target_memcpy_async(d, src, sizeof src, 0, 0, dev, host, 2, o);
#pragma omp depobj(o[0]) update(in)
#pragma omp depobj(o[0]) depend(in : mid)
#pragma omp depobj(o[1]) depend(out : dst)
        bad |= omp_target_memcpy_async(dst, d, sizeof dst, 0, 0, host, dev, 2, o);
#pragma omp task depend(in : dst) shared(total)
        for (int i = 0; i < N; i++)
            total += dst[i];
#pragma omp taskwait
    }
    printf("async: bad=%d total=%ld\n", bad, total);
    printf("accessible: host=%d device=%d\n", omp_target_is_accessible(src, sizeof src, host),
           omp_target_is_accessible(src, sizeof src, dev));
    printf("mapped: host=%d unmapped=%d\n", omp_get_mapped_ptr(src, host) == src,
           omp_get_mapped_ptr(src, dev) == NULL);
    omp_target_free(d, dev);
    return 0;
}
