/* Conversions and special values in kernels: float/double to int (truncation toward zero) and
 * back, to unsigned and 64-bit, double to float narrowing, NaN and infinity tests, comparisons
 * with NaN, and -0.0. */
#include <stdio.h>
#include <math.h>

#define N 2000

int main(void)
{
    static long ci[N], cu[N], cl[N];
    static float nf[N];
    int nans = 0, infs = 0, unordered = 0, negzero = 0;
#pragma omp target teams distribute parallel for map(from : ci, cu, cl, nf) \
    reduction(+ : nans, infs, unordered, negzero)
    for (int i = 0; i < N; i++) {
        double d = (i - 1000) * 0.73;
        ci[i] = (int)d + (int)(float)(d * 0.5);
        cu[i] = (unsigned)(i * 3.9) + (unsigned char)(i % 300);
        cl[i] = (long)(d * 1e9) + (long long)(-d * 3.5e10) / 1000;
        nf[i] = (float)(d / 3.0) + (float)i;
        double z = (i % 4 == 0) ? 0.0 : d;
        double q = z / (double)(i % 5 == 0 ? 0 : 1);
        nans += isnan(q) != 0;
        infs += isinf(q) != 0;
        unordered += !(q < 1.0) && !(q >= 1.0);
        double nz = -z * 0.0;
        negzero += signbit(nz) != 0 && nz == 0.0;
    }
    long s1 = 0, s2 = 0, s3 = 0;
    double s4 = 0;
    for (int i = 0; i < N; i++) {
        s1 += ci[i];
        s2 += cu[i];
        s3 += cl[i] % 1000003;
        s4 += nf[i];
    }
    printf("int=%ld unsigned=%ld long=%ld float=%.6f\n", s1, s2, s3, s4);
    printf("ci[1]=%ld cu[1999]=%ld cl[5]=%ld nf[3]=%.6f\n", ci[1], cu[N - 1], cl[5], nf[3]);
    printf("nans=%d infs=%d unordered=%d negzero=%d\n", nans, infs, unordered, negzero);
    return 0;
}
