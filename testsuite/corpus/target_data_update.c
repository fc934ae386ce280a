/* Structured device data: a target data region keeps arrays resident across several kernels,
 * target update to/from synchronizes host and device copies mid-region, and map(alloc:) gives
 * device scratch space that is never copied. */
#include <stdio.h>
#include <omp.h>

#define N 4096

static double a[N], b[N], tmp[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = i % 17;
        b[i] = 0.0;
    }
    double checkpoint = 0.0;
#pragma omp target data map(to : a) map(from : b) map(alloc : tmp)
    {
        for (int step = 0; step < 4; step++) {
#pragma omp target teams distribute parallel for
            for (int i = 0; i < N; i++)
                tmp[i] = a[i] * 0.5 + step;
#pragma omp target teams distribute parallel for
            for (int i = 0; i < N; i++)
                b[i] += tmp[i];
        }
        /* copy b back in the middle of the region and check it on the host */
#pragma omp target update from(b)
        for (int i = 0; i < N; i++)
            checkpoint += b[i];

        /* change a on the host, then push it to the device */
        for (int i = 0; i < N; i++)
            a[i] = 1.0;
#pragma omp target update to(a)
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            b[i] = b[i] * 2.0 + a[i];
    }
    double total = 0.0;
    for (int i = 0; i < N; i++)
        total += b[i];
    printf("checkpoint sum=%.6g\n", checkpoint);
    printf("final: b[0]=%.6g b[16]=%.6g b[N-1]=%.6g sum=%.6g\n", b[0], b[16], b[N - 1], total);

    /* array sections: only the middle half is mapped and updated */
    int v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i;
#pragma omp target data map(tofrom : v[25:50])
    {
#pragma omp target teams distribute parallel for
        for (int i = 25; i < 75; i++)
            v[i] = -v[i];
#pragma omp target update from(v[25:10])
        printf("partial update: v[25]=%d v[34]=%d\n", v[25], v[34]);
    }
    int neg = 0;
    for (int i = 0; i < 100; i++)
        neg += v[i] < 0;
    printf("negated after region: %d (v[24]=%d v[74]=%d v[75]=%d)\n", neg, v[24], v[74], v[75]);

    /* if(0) runs on the host: the same result either way */
    int flag[1] = {0};
#pragma omp target if (0) map(tofrom : flag)
    flag[0] = 5;
    printf("target if(0): %d\n", flag[0]);
    return 0;
}
