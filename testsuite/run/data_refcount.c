/* Reference counting of mappings: nested `target data` regions (the inner map of a present array
 * neither allocates nor copies), enter data twice then exit with release and delete, and
 * map(from:) only copying at the end of the outermost lifetime. */
#include <stdio.h>

#define N 512

int main(void)
{
    static int a[N];
    for (int i = 0; i < N; i++)
        a[i] = 1;
    int inner_seen = 0;
#pragma omp target data map(tofrom : a)
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            a[i] += 1; /* device: 2 */
#pragma omp target data map(to : a)
        {
            /* present: no copy in, so the device still has 2 */
#pragma omp target map(tofrom : inner_seen)
            inner_seen = a[7];
        }
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            a[i] *= 5; /* device: 10 */
    }
    printf("inner_seen=%d a[0]=%d\n", inner_seen, a[0]);

    static double b[N];
    for (int i = 0; i < N; i++)
        b[i] = 0.5;
#pragma omp target enter data map(to : b)
#pragma omp target enter data map(to : b) /* count 2, no copy */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
        b[i] += i;
#pragma omp target exit data map(release : b) /* count 1, still present */
    double probe = 0;
#pragma omp target map(from : probe)
    probe = b[100];
#pragma omp target exit data map(from : b) /* count 0: copied back */
    double s = 0;
    for (int i = 0; i < N; i++)
        s += b[i];
    printf("probe=%.1f s=%.1f\n", probe, s);

    static int c[N];
#pragma omp target enter data map(alloc : c)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
        c[i] = i;
#pragma omp target exit data map(delete : c)
#pragma omp target enter data map(alloc : c)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
        c[i] = 3 * i;
#pragma omp target exit data map(from : c)
    long cs = 0;
    for (int i = 0; i < N; i++)
        cs += c[i];
    printf("cs=%ld\n", cs);
    return 0;
}
