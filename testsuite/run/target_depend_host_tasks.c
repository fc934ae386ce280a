/* Asynchronous target tasks: target nowait with depend(in/out/inout) between host tasks and
 * device tasks, taskwait, and target enter/exit data nowait (Examples: async_target). */
#include <stdio.h>

#define N 512

static void init(float *v, int n, float s)
{
    for (int i = 0; i < n; i++)
        v[i] = s * (float)(i % 8);
}

int main(void)
{
    static float a[N], b[N], c[N];
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : a)
        init(a, N, 1.0f);
#pragma omp task depend(out : b)
        init(b, N, 2.0f);
#pragma omp target enter data map(to : a, b) depend(in : a, b) nowait
#pragma omp target enter data map(alloc : c) nowait depend(out : c)
#pragma omp target teams distribute parallel for nowait depend(in : a, b) depend(out : c)
        for (int i = 0; i < N; i++)
            c[i] = a[i] + b[i];
#pragma omp target teams distribute parallel for nowait depend(inout : c)
        for (int i = 0; i < N; i++)
            c[i] = c[i] * 0.5f;
#pragma omp target exit data map(from : c) map(release : a, b) depend(inout : c) nowait
#pragma omp task depend(in : c)
        {
            float s = 0;
            for (int i = 0; i < N; i++)
                s += c[i];
            printf("s=%.1f c[7]=%.2f\n", s, c[7]);
        }
#pragma omp taskwait
    }
    return 0;
}
