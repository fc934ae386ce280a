/* printf inside target regions: a serial region printing in a loop with several formats, and
 * a parallel kernel where only one iteration prints. */
#include <stdio.h>

#pragma omp declare target
static void report(const char *tag, int i, double x)
{
    printf("[%s] i=%d x=%.6f hex=%x\n", tag, i, x, (unsigned)i * 17u);
}
#pragma omp end declare target

int main(void)
{
    int n = 5;
    printf("host: before\n");
#pragma omp target
    {
        for (int i = 0; i < n; i++)
            printf("device line %d: %d %ld %c %s\n", i, i * i, (long)i << 40, 'a' + i, "ok");
        printf("float %.3f %e %g\n", 1.5, 2.5e-3, 0.125);
    }
    printf("host: between\n");
    double data[64];
    for (int i = 0; i < 64; i++)
        data[i] = i * 0.5;
#pragma omp target teams distribute parallel for map(to : data)
    for (int i = 0; i < 64; i++)
        if (i == 42)
            report("kernel", i, data[i]);
#pragma omp target
    report("serial", -3, -1.25);
    printf("host: after\n");
    return 0;
}
