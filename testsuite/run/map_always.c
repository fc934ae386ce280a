/* map(always, ...): inside an enclosing data region the array is already present, so only
 * `always` forces the copies; counted by comparing what the kernel saw with host values. */
#include <stdio.h>

#define N 256

int main(void)
{
    static int a[N];
    for (int i = 0; i < N; i++)
        a[i] = i;
    long seen1 = 0, seen2 = 0;
#pragma omp target data map(tofrom : a)
    {
        for (int i = 0; i < N; i++)
            a[i] = 2 * i; /* host change */
        /* always,to: the device sees the new host values */
#pragma omp target map(always, to : a) map(tofrom : seen1)
        for (int i = 0; i < N; i++)
            seen1 += a[i];
#pragma omp target teams distribute parallel for map(always, tofrom : a)
        for (int i = 0; i < N; i++)
            a[i] += 1;
        /* always,from brought the device values back already, inside the region */
        for (int i = 0; i < N; i++)
            seen2 += a[i];
#pragma omp target map(always, from : a)
        a[0] = -5;
        printf("inside: a[0]=%d a[255]=%d\n", a[0], a[N - 1]);
    }
    printf("seen1=%ld seen2=%ld a[0]=%d a[10]=%d\n", seen1, seen2, a[0], a[10]);
    return 0;
}
