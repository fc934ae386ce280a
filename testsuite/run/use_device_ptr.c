/* use_device_ptr and use_device_addr in `target data`: the translated device addresses are
 * handed to target regions through is_device_ptr; omp_target_is_present inside the data region
 * (outside it the answer differs between a real device and gcc's host fallback). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 2000

static void kernel_on_device_ptr(double *dp, int n)
{
#pragma omp target teams distribute parallel for is_device_ptr(dp)
    for (int i = 0; i < n; i++)
        dp[i] = dp[i] * 2.0 + 1.0;
}

int main(void)
{
    double *h = malloc(N * sizeof *h);
    for (int i = 0; i < N; i++)
        h[i] = i % 9;
    int dev = omp_get_default_device();
    int present = -1;
    static int arr[64];
#pragma omp target data map(tofrom : h[0:N]) map(tofrom : arr)
    {
        present = omp_target_is_present(h, dev);
#pragma omp target data use_device_ptr(h)
        kernel_on_device_ptr(h, N);
#pragma omp target data use_device_addr(arr)
        {
            int *da = arr;
#pragma omp target is_device_ptr(da)
            for (int k = 0; k < 64; k++)
                da[k] = k * 3;
        }
    }
    double s = 0;
    long sa = 0;
    for (int i = 0; i < N; i++)
        s += h[i];
    for (int k = 0; k < 64; k++)
        sa += arr[k];
    printf("present=%d s=%.6f h[5]=%.6f sa=%ld\n", present, s, h[5], sa);
    free(h);
    return 0;
}
