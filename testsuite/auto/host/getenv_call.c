/* Must stay on the host: the loop calls getenv, a C library function with no device version.
 * The variable is one nobody sets (a program-specific name); if it were set the program would
 * say so, so the output is fixed for the test harness. */
#include <stdio.h>
#include <stdlib.h>

#define N 3000

int main(void)
{
    static int scaled[N];
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        const char *e = getenv("OMPCC_AUTOCORPUS_UNSET_FACTOR");
        int factor = e ? atoi(e) : 3;
        scaled[i] = (i % 50) * factor;
    }
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += scaled[i];
    printf("sum=%ld scaled[49]=%d\n", sum, scaled[49]);
    return 0;
}
