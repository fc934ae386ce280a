/* has_device_addr: inside a `target data` region with use_device_addr, the device address of a
 * mapped array is handed to a target region that takes it as already a device address. */
#include <stdio.h>

#define N 2048

int main(void)
{
    static double v[N];
    for (int i = 0; i < N; i++)
        v[i] = i % 17;
    double s = 0.0;
#pragma omp target data map(tofrom : v)
    {
#pragma omp target data use_device_addr(v)
        {
#pragma omp target teams distribute parallel for has_device_addr(v)
            for (int i = 0; i < N; i++)
                v[i] = v[i] * 3.0 + 1.0;
        }
#pragma omp target teams distribute parallel for reduction(+ : s)
        for (int i = 0; i < N; i++)
            s += v[i];
    }
    printf("s=%.6f v[16]=%.6f v[2047]=%.6f\n", s, v[16], v[N - 1]);
    return 0;
}
