/* The device clause on target, target data, enter/exit data and update, naming the default
 * device explicitly, and omp_get_default_device/omp_set_default_device round trips. */
#include <stdio.h>
#include <omp.h>

#define N 1500

int main(void)
{
    int dev = omp_get_default_device();
    omp_set_default_device(dev);
    int same = omp_get_default_device() == dev;
    static double x[N];
    for (int i = 0; i < N; i++)
        x[i] = i * 0.25;
#pragma omp target enter data map(to : x) device(dev)
#pragma omp target teams distribute parallel for device(dev)
    for (int i = 0; i < N; i++)
        x[i] += 1.0;
#pragma omp target update from(x[0:10]) device(dev)
    double head = x[9];
#pragma omp target data map(alloc : x) device(dev)
    {
#pragma omp target device(dev)
        for (int i = 0; i < N; i++)
            x[i] *= 2.0;
    }
#pragma omp target exit data map(from : x) device(dev)
    double s = 0;
    for (int i = 0; i < N; i++)
        s += x[i];
    printf("same=%d head=%.6f s=%.6f x[1499]=%.6f\n", same, head, s, x[N - 1]);
    return 0;
}
