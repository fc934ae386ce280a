/* Polynomial evaluation: Horner's rule over a degree-12 coefficient array in a declare target
 * global, its derivative, and a few Newton steps per element to find roots of x^3 - a. */
#include <stdio.h>

#define N 5000
#define DEG 12

#pragma omp declare target
double coef[DEG + 1] = {1, -0.5, 0.25, -0.125, 0.0625, -0.03125, 0.015625, 0, 0, 0.001, 0,
                        -0.0001, 0.00001};
static double horner(double x)
{
    double p = coef[DEG];
    for (int k = DEG - 1; k >= 0; k--)
        p = p * x + coef[k];
    return p;
}
static double dhorner(double x)
{
    double p = DEG * coef[DEG];
    for (int k = DEG - 1; k >= 1; k--)
        p = p * x + k * coef[k];
    return p;
}
#pragma omp end declare target

int main(void)
{
    static double p[N], dp[N], root[N];
#pragma omp target teams distribute parallel for map(from : p, dp, root)
    for (int i = 0; i < N; i++) {
        double x = -2.0 + 4.0 * i / N;
        p[i] = horner(x);
        dp[i] = dhorner(x);
        double a = 1.0 + i % 50, z = a;
        for (int it = 0; it < 40; it++)
            z = z - (z * z * z - a) / (3 * z * z);
        root[i] = z;
    }
    double sp = 0, sd = 0, sr = 0;
    for (int i = 0; i < N; i++) {
        sp += p[i];
        sd += dp[i];
        sr += root[i];
    }
    printf("sum p=%.10g dp=%.10g roots=%.10g p[0]=%.10g root[26]=%.10g\n", sp, sd, sr, p[0],
           root[26]);
    return 0;
}
