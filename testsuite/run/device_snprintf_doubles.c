/* snprintf's floating-point conversions in a kernel on doubles from random bit patterns
 * over the whole range (subnormals, huge values, infinities, NaNs, -0): each iteration makes
 * its value from a xorshift of its index and prints it in the g, e, f and a styles; the host
 * prints the lines, which must be glibc's to the last digit. */
#include <stdio.h>
#include <string.h>

#define N 256
#define W 112

static char out[N][W];

int main(void)
{
#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++) {
        unsigned long s = 0x9e3779b97f4a7c15UL * (unsigned long)(i + 1);
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        if (i % 8 == 1)
            s &= 0x800fffffffffffffUL; /* subnormal */
        if (i % 8 == 2)
            s = (s & 0x800fffffffffffffUL) | ((unsigned long)(1000 + i % 60) << 52);
        if (i == 3)
            s = 0x7ff0000000000000UL;
        if (i == 4)
            s = 0x8000000000000000UL;
        if (i == 5)
            s = 0xfff8000000000001UL;
        if (i == 6)
            s = 0x7ff0000000000001UL;
        double x;
        memcpy(&x, &s, sizeof x);
        snprintf(out[i], W, "%.17g %a %.3e %.2f", x, x, x, i % 8 == 2 ? x : 0.0);
    }
    for (int i = 0; i < N; i++)
        printf("%3d %s\n", i, out[i]);
    return 0;
}
