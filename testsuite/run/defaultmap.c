/* defaultmap: scalars tofrom (so the region's writes come back), firstprivate scalars under
 * the default rules, defaultmap(to:aggregate) and an explicit map overriding a defaultmap. */
#include <stdio.h>

#define N 1000

int main(void)
{
    int count = 0;
    double total = 0.0;
#pragma omp target defaultmap(tofrom : scalar)
    {
        for (int i = 0; i < N; i++)
            if (i % 7 == 0)
                count++;
        total = count * 1.5;
    }
    printf("tofrom scalar: count=%d total=%.6f\n", count, total);

    int k = 5; /* default: firstprivate, the change stays on the device */
    int seen = 0;
#pragma omp target map(tofrom : seen)
    {
        k += 10;
        seen = k;
    }
    printf("firstprivate default: k=%d seen=%d\n", k, seen);

    int a[N];
    for (int i = 0; i < N; i++)
        a[i] = i;
    long s = 0;
#pragma omp target defaultmap(to : aggregate) map(tofrom : s)
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("aggregate to: s=%ld\n", s);

    int flag = 1;
#pragma omp target defaultmap(firstprivate : scalar) map(tofrom : flag)
    flag = flag * 42;
    printf("explicit map wins: flag=%d\n", flag);

    double v[4] = {1, 2, 3, 4};
#pragma omp target defaultmap(tofrom : aggregate)
    for (int i = 0; i < 4; i++)
        v[i] *= v[i];
    printf("aggregate tofrom: %.1f %.1f %.1f %.1f\n", v[0], v[1], v[2], v[3]);
    return 0;
}
