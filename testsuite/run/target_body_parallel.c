/* A `parallel` that is the whole body of `target` (the split form of `target parallel`): its
 * `num_threads` bounds the team, as in the combined form, and its worksharing loops, `single`
 * and reductions see that team. */
#include <stdio.h>
#include <omp.h>

#define N 1000

int main(void)
{
    static int a[N];
    int team = 0, combined = 0;
    long sum = 0;
#pragma omp target map(tofrom : a, team, sum)
#pragma omp parallel num_threads(4)
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = i % 7;
#pragma omp single
        team = omp_get_num_threads();
#pragma omp for reduction(+ : sum)
        for (int i = 0; i < N; i++)
            sum += a[N - 1 - i];
    }
#pragma omp target parallel num_threads(3) map(tofrom : combined)
#pragma omp single
    combined = omp_get_num_threads();
    /* OpenMP may give fewer threads than asked for, never more */
    printf("team within num_threads: %d %d\n", team >= 1 && team <= 4, combined >= 1 && combined <= 3);
    printf("sum %ld a[500] %d\n", sum, a[500]);
    return 0;
}
