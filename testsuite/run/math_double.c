/* <math.h> double functions in a kernel: each result array is summed (absolute values, so no
 * cancellation) and a few elements printed with 10 digits. */
#include <stdio.h>
#include <math.h>

#define N 2000
#define F 16

static double r[F][N];

int main(void)
{
#pragma omp target teams distribute parallel for map(from : r)
    for (int i = 0; i < N; i++) {
        double x = (i + 1) / 256.0; /* exact: (0, 7.8125] */
        double s = x - 3.875;        /* exact: [-3.87, 3.94] */
        r[0][i] = sqrt(x);
        r[1][i] = exp(s);
        r[2][i] = log(x);
        r[3][i] = sin(s * 3);
        r[4][i] = cos(s * 3);
        r[5][i] = pow(x, 1.7);
        r[6][i] = fabs(s);
        r[7][i] = floor(s * 2.5) + ceil(s * 1.5);
        r[8][i] = fmin(s, 0.5) + fmax(s, -0.5);
        r[9][i] = atan2(s, x);
        r[10][i] = tanh(s);
        r[11][i] = cbrt(s * 10);
        r[12][i] = fmod(x * 7, 1.3) + round(s) + trunc(s * 3.3);
        r[13][i] = hypot(s, x) + exp2(s) + log2(x) + log10(x);
        r[14][i] = erf(s) + asin(s / 4.5) + acos(s / 4.5);
        r[15][i] = fma(x, s, 0.25) + copysign(x, s) + ldexp(s, 3);
    }
    const char *names[F] = {"sqrt", "exp",  "log",  "sin",   "cos",  "pow",  "fabs", "floor",
                            "fmin", "atan2", "tanh", "cbrt", "fmod", "hypot", "erf", "fma"};
    for (int f = 0; f < F; f++) {
        double s = 0.0;
        for (int i = 0; i < N; i++)
            s += fabs(r[f][i]);
        printf("%-6s sum|.|=%.10g r[17]=%.10g r[1234]=%.10g\n", names[f], s, r[f][17], r[f][1234]);
    }
    return 0;
}
