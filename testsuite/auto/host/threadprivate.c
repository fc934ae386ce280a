/* Must stay on the host: the loop accumulates into a threadprivate variable, whose copies
 * belong to the host's threads and persist into the next parallel region, where they are
 * combined with a reduction. The combined total does not depend on the thread count. */
#include <omp.h>
#include <stdio.h>

#define N 8000

static long counter;
#pragma omp threadprivate(counter)

int main(void)
{
    omp_set_dynamic(0);
    static int data[N];
    for (int i = 0; i < N; i++)
        data[i] = (i * 37) % 101;
#pragma omp parallel
    counter = 0;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        counter += data[i];
    long total = 0;
#pragma omp parallel reduction(+ : total)
    total += counter;
    long check = 0;
    for (int i = 0; i < N; i++)
        check += data[i];
    printf("total=%ld matches=%d\n", total, total == check);
    return 0;
}
