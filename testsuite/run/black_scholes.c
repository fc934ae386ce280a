/* Black-Scholes call and put prices for 4000 options: log, sqrt, exp and erf-based normal CDF in
 * a device function; put-call parity is checked on the host. */
#include <stdio.h>
#include <math.h>

#define N 4000

static double S[N], K[N], T[N], call[N], put[N];

#pragma omp declare target
static double cnd(double x)
{
    return 0.5 * (1.0 + erf(x / sqrt(2.0)));
}
#pragma omp end declare target

int main(void)
{
    const double r = 0.03, sigma = 0.25;
    for (int i = 0; i < N; i++) {
        S[i] = 50.0 + (i % 100);
        K[i] = 60.0 + (i % 37) * 2.0;
        T[i] = 0.25 + (i % 8) * 0.25;
    }
#pragma omp target teams distribute parallel for map(to : S, K, T) map(from : call, put)
    for (int i = 0; i < N; i++) {
        double sq = sigma * sqrt(T[i]);
        double d1 = (log(S[i] / K[i]) + (r + 0.5 * sigma * sigma) * T[i]) / sq;
        double d2 = d1 - sq;
        double disc = K[i] * exp(-r * T[i]);
        call[i] = S[i] * cnd(d1) - disc * cnd(d2);
        put[i] = disc * cnd(-d2) - S[i] * cnd(-d1);
    }
    double sc = 0, sp = 0, parity = 0;
    for (int i = 0; i < N; i++) {
        sc += call[i];
        sp += put[i];
        parity = fmax(parity, fabs(call[i] - put[i] - (S[i] - K[i] * exp(-r * T[i]))));
    }
    printf("calls=%.8g puts=%.8g parity_ok=%d call[123]=%.8g put[3999]=%.8g\n", sc, sp,
           parity < 1e-9, call[123], put[N - 1]);
    return 0;
}
