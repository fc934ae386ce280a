/* Tasks in target regions: `depend` chains (the target task's variables are firstprivate in
 * its tasks unless `shared`), a `taskloop` with a reduction, and tasks inside the parallel
 * regions of a generic-mode teams kernel and of a `target parallel` kernel. */
#include <stdio.h>

int main(void)
{
    int pipe[6];
    long tl = 0;
#pragma omp target map(from : pipe) map(tofrom : tl)
    {
        int stage[3] = {0, 0, 0};
#pragma omp task depend(out : stage[0])
        stage[0] = 5;
#pragma omp task depend(in : stage[0]) depend(out : stage[1])
        stage[1] = stage[0] * 10;
#pragma omp task depend(in : stage[1]) depend(out : stage[2])
        stage[2] = stage[1] + 7;
#pragma omp taskwait
        /* `stage` belongs to the target task: firstprivate in each task, so still zeros */
        for (int i = 0; i < 3; i++)
            pipe[i] = stage[i];
#pragma omp task depend(out : stage[0]) shared(stage)
        stage[0] = 5;
#pragma omp task depend(in : stage[0]) depend(out : stage[1]) shared(stage)
        stage[1] = stage[0] * 10;
#pragma omp task depend(in : stage[1]) depend(out : stage[2]) shared(stage)
        stage[2] = stage[1] + 7;
#pragma omp taskwait
        for (int i = 0; i < 3; i++)
            pipe[3 + i] = stage[i];
#pragma omp taskloop grainsize(16) reduction(+ : tl)
        for (int i = 0; i < 1000; i++)
            tl += i % 7 == 0 ? i : 0;
    }
    printf("pipeline: %d %d %d, shared: %d %d %d\n", pipe[0], pipe[1], pipe[2], pipe[3], pipe[4],
           pipe[5]);
    printf("taskloop sum: %ld\n", tl);
    /* Tasks inside parallel regions of kernels: a team-level variable is shared by the
     * forked team (generic mode), a mapped one by the team of `target parallel`. */
    long per_block[4];
    int z = 1;
#pragma omp target teams map(from : per_block)
#pragma omp distribute
    for (int b = 0; b < 4; b++) {
        long mine = b;
#pragma omp parallel
        {
#pragma omp single
            for (int i = 0; i < 10; i++) {
#pragma omp task
                {
#pragma omp atomic
                    mine += i * (b + 1);
                }
            }
        }
        per_block[b] = mine;
    }
#pragma omp target parallel map(tofrom : z)
    {
#pragma omp single
        {
            int local = 7;
#pragma omp task
            {
                local *= 3; /* firstprivate: lost */
                z += local;
            }
#pragma omp taskwait
            z = z * 100 + local;
        }
    }
    printf("per block: %ld %ld %ld %ld, z=%d\n", per_block[0], per_block[1], per_block[2],
           per_block[3], z);
    return 0;
}
