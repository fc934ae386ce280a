/* private and firstprivate on target and on the loop constructs: a private scratch array per
 * iteration, a firstprivate scalar and array whose device copies are modified without affecting
 * the host, and a private variable assigned before use. */
#include <stdio.h>

#define N 2048

int main(void)
{
    static int out[N];
    int offset = 100;
    int coef[4] = {1, -2, 3, -4};
    int tmp = -1;
#pragma omp target teams distribute parallel for firstprivate(offset, coef) private(tmp) \
    map(from : out)
    for (int i = 0; i < N; i++) {
        int scratch[8];
        for (int k = 0; k < 8; k++)
            scratch[k] = (i + k) * coef[k % 4];
        tmp = 0;
        for (int k = 0; k < 8; k++)
            tmp += scratch[7 - k] * (k + 1);
        out[i] = tmp + offset;
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += out[i];
    printf("sum=%ld out[0]=%d out[2047]=%d offset=%d tmp=%d\n", s, out[0], out[N - 1], offset,
           tmp);

    /* firstprivate on the target construct itself: the device copy starts with the host value
     * and changes stay on the device. */
    int base = 7;
    int result = 0;
#pragma omp target firstprivate(base) map(tofrom : result)
    {
        for (int k = 0; k < 5; k++)
            base *= 2;
        result = base;
    }
    printf("result=%d base=%d\n", result, base);

    /* private on the target construct: the region must set it before use. */
    double acc = 123.0;
#pragma omp target private(acc) map(tofrom : result)
    {
        acc = 0.5;
        for (int k = 0; k < 10; k++)
            acc += k;
        result = (int)(acc * 2);
    }
    printf("result=%d acc=%.6f\n", result, acc);
    return 0;
}
