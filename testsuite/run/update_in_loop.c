/* `target update` inside a host loop within a `target data` region: the host changes a boundary
 * value every step and pushes it, the device iterates, the host pulls a section to inspect. */
#include <stdio.h>

#define N 1024
#define STEPS 8

int main(void)
{
    static double a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = 0.0;
    double peek[STEPS];
#pragma omp target data map(tofrom : a) map(alloc : b)
    {
        for (int s = 0; s < STEPS; s++) {
            a[0] = 100.0 + s; /* new boundary value on the host */
#pragma omp target update to(a[0:1])
#pragma omp target teams distribute parallel for
            for (int i = 1; i < N; i++)
                b[i] = 0.5 * (a[i - 1] + a[i]);
#pragma omp target teams distribute parallel for
            for (int i = 1; i < N; i++)
                a[i] = b[i];
#pragma omp target update from(a[0:16])
            peek[s] = a[s + 1];
        }
    }
    for (int s = 0; s < STEPS; s++)
        printf("step %d a[%d]=%.10g\n", s, s + 1, peek[s]);
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += a[i];
    printf("sum=%.10g\n", sum);
    return 0;
}
