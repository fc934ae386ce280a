/* Must stay on the host: the loop calls through a table of function pointers chosen per
 * iteration, so the callee is not known at compile time and has no device body. */
#include <stdio.h>

#define N 4000

static double op_square(double x)
{
    return x * x;
}
static double op_half(double x)
{
    return x * 0.5;
}
static double op_negate(double x)
{
    return -x;
}
static double op_shift(double x)
{
    return x + 3.0;
}

static double (*const ops[4])(double) = {op_square, op_half, op_negate, op_shift};

int main(void)
{
    static double in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (i % 23) * 0.25;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        out[i] = ops[(i * 7 / 3) % 4](in[i]);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += out[i];
    printf("sum=%.6f out[0]=%.6f out[5]=%.6f out[3999]=%.6f\n", sum, out[0], out[5], out[N - 1]);
    return 0;
}
