/* In the shape of NPB EP: every iteration derives its own stream of pseudo-random numbers from a
 * closed-form LCG jump on its index (no state carried between iterations), accepts pairs inside
 * the unit circle (Marsaglia polar method) and counts the Gaussian deviates per annulus. Counts
 * are integer reductions; the two Gaussian sums are float reductions. */
#include <math.h>
#include <stdio.h>

#define BATCHES 2048
#define PAIRS 16
#define NQ 10

static const unsigned long long LCG_A = 6364136223846793005ULL;
static const unsigned long long LCG_C = 1442695040888963407ULL;

/* x_{k} of the LCG x' = a x + c (mod 2^64) started at seed, by doubling: O(log k) steps. */
static unsigned long long lcg_jump(unsigned long long seed, unsigned long long k)
{
    unsigned long long acc_mul = 1, acc_add = 0, mul = LCG_A, add = LCG_C;
    while (k) {
        if (k & 1) {
            acc_mul *= mul;
            acc_add = acc_add * mul + add;
        }
        add = (mul + 1) * add;
        mul *= mul;
        k >>= 1;
    }
    return acc_mul * seed + acc_add;
}

/* Top 52 bits of the state as a double in [0, 1). */
static double to_unit(unsigned long long x)
{
    return (double)(x >> 12) * (1.0 / 4503599627370496.0);
}

int main(void)
{
    long q0 = 0, q1 = 0, q2 = 0, q3 = 0, q4 = 0, q5 = 0, q6 = 0, q7 = 0, q8 = 0, q9 = 0;
    long accepted = 0;
    double sx = 0.0, sy = 0.0;
#pragma omp parallel for reduction(+ : q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, accepted, sx, sy)
    for (int b = 0; b < BATCHES; b++) {
        unsigned long long x = lcg_jump(271828183ULL, (unsigned long long)b * 2 * PAIRS);
        for (int p = 0; p < PAIRS; p++) {
            x = LCG_A * x + LCG_C;
            double u = 2.0 * to_unit(x) - 1.0;
            x = LCG_A * x + LCG_C;
            double v = 2.0 * to_unit(x) - 1.0;
            double t = u * u + v * v;
            if (t > 1.0 || t == 0.0)
                continue;
            double f = sqrt(-2.0 * log(t) / t);
            double gx = u * f, gy = v * f;
            int l = (int)fmax(fabs(gx), fabs(gy));
            accepted++;
            sx += gx;
            sy += gy;
            switch (l) {
            case 0: q0++; break;
            case 1: q1++; break;
            case 2: q2++; break;
            case 3: q3++; break;
            case 4: q4++; break;
            case 5: q5++; break;
            case 6: q6++; break;
            case 7: q7++; break;
            case 8: q8++; break;
            default: q9++; break;
            }
        }
    }
    long q[NQ] = {q0, q1, q2, q3, q4, q5, q6, q7, q8, q9};
    printf("pairs=%d accepted=%ld\n", BATCHES * PAIRS, accepted);
    for (int l = 0; l < NQ; l++)
        printf("q[%d]=%ld\n", l, q[l]);
    printf("sx=%.4e sy=%.4e\n", sx, sy);
    return 0;
}
