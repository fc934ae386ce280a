/* A reduction item the region's body never names: the item keeps its value (each thread's
 * copy starts at the identity and nothing is added), on a combined construct and on a
 * nested one. */
#include <stdio.h>

int main(void)
{
    double total = 1.5, v[64];
    long count = 7;
    int flags = 3;
#pragma omp target teams distribute parallel for reduction(+ : total) map(tofrom : v, total)
    for (int i = 0; i < 64; i++)
        v[i] = i * 0.5;
#pragma omp target teams map(tofrom : count, flags, v)
#pragma omp distribute parallel for reduction(+ : count) reduction(| : flags)
    for (int i = 0; i < 64; i++)
        v[i] += 1.0;
    printf("%.2f %.2f %ld %d\n", total, v[63], count, flags);
    return 0;
}
