/* pow, cbrt and hypot of the ompcc device math library.
 *
 * pow: x^y = exp(y log|x|) with log|x| in double-double (relative error near 2^-66, see
 * log.c) so that y log|x|, up to 745 in magnitude, keeps about 2^-56 absolute accuracy, and
 * exp taking that double-double argument (exp.c). Special cases follow C11 F.10.4.4.
 * cbrt: Newton's iteration from a quadratic first guess on [1, 8), the last step with the
 * residual y^3 - t evaluated exactly. hypot: scale to the exponent of the larger argument,
 * then sqrt of a double-double sum of squares. Float versions go through double. */
#include "ompcc_math.h"
#include "internal.h"

double __ompcc_pow(double x, double y) {
    if (y == 0.0 || x == 1.0) {
        return 1.0;
    }
    if (ompcc_isnan(x) || ompcc_isnan(y)) {
        return x + y;
    }
    double ax = __builtin_fabs(x);
    double ay = __builtin_fabs(y);
    /* 0: not an integer, 1: odd integer, 2: even integer */
    int yint = 0;
    if (ay >= 0x1p53) {
        yint = 2;
    } else if (__builtin_trunc(y) == y) {
        double h = 0.5 * y;
        yint = __builtin_trunc(h) == h ? 2 : 1;
    }
    if (ay == OMPCC_INF) {
        if (ax == 1.0) {
            return 1.0;
        }
        return ((ax < 1.0) == (y > 0.0)) ? 0.0 : OMPCC_INF;
    }
    if (x == 0.0) {
        if (y < 0.0) {
            return yint == 1 ? __builtin_copysign(OMPCC_INF, x) : OMPCC_INF;
        }
        return yint == 1 ? x : 0.0;
    }
    if (ax == OMPCC_INF) {
        double r = y < 0.0 ? 0.0 : OMPCC_INF;
        return (x < 0.0 && yint == 1) ? -r : r;
    }
    double sign = 1.0;
    if (x < 0.0) {
        if (yint == 0) {
            return OMPCC_NAN;
        }
        if (yint == 1) {
            sign = -1.0;
        }
    }
    double ll;
    double lh = __ompcc_i_log_core(ax, &ll);
    double p = y * lh;
    if (p > 710.0) {
        return sign * OMPCC_INF;
    }
    if (p < -746.0) {
        return sign * 0.0;
    }
    double pl;
    double ph = ompcc_dd_mul(y, 0.0, lh, ll, &pl);
    int k;
    double lo;
    double h = __ompcc_i_exp_core(ph, pl, &k, &lo);
    return sign * ompcc_scale(h + lo, k);
}

double __ompcc_cbrt(double x) {
    if (x == 0.0 || ompcc_isnan(x) || __builtin_fabs(x) == OMPCC_INF) {
        return x + x;
    }
    double a = __builtin_fabs(x);
    ompcc_u64 u = ompcc_bits(a);
    int e = 0;
    if (u < (1ULL << 52)) {
        a *= 0x1p54;
        u = ompcc_bits(a);
        e = -54;
    }
    e += (int)(u >> 52) - 1023;
    double m = ompcc_from_bits((u & 0xfffffffffffffULL) | (1023ULL << 52));
    int q = e / 3;
    int r = e - 3 * q;
    if (r < 0) {
        r += 3;
        q -= 1;
    }
    double t = m * (r == 0 ? 1.0 : (r == 1 ? 2.0 : 4.0)); /* in [1, 8), cbrt(t) in [1, 2) */
    double y = __builtin_fma(__builtin_fma(-0x1.6da65a34fa503p-7, t, 0x1.e3d807b586086p-3), t,
                             0x1.a0a9b48a52797p-1);
    for (int i = 0; i < 3; i++) {
        y = (2.0 * y + t / (y * y)) * 0x1.5555555555555p-2; /* 1/3 */
    }
    double y2l;
    double y2h = ompcc_two_prod(y, y, &y2l);
    double y3l;
    double y3h = ompcc_two_prod(y2h, y, &y3l);
    y3l += y2l * y;
    double res = (y3h - t) + y3l;
    y -= res / (3.0 * y2h);
    return __builtin_copysign(y * ompcc_pow2(q), x);
}

/* floor(log2|x|) for finite nonzero x */
static int ompcc_ilogb(double x) {
    ompcc_u64 u = ompcc_bits(x) & 0x7fffffffffffffffULL;
    if (u < (1ULL << 52)) {
        return (int)((ompcc_bits(x * 0x1p64) >> 52) & 0x7ff) - 1023 - 64;
    }
    return (int)(u >> 52) - 1023;
}

double __ompcc_hypot(double x, double y) {
    double a = __builtin_fabs(x);
    double b = __builtin_fabs(y);
    if (a == OMPCC_INF || b == OMPCC_INF) {
        return OMPCC_INF;
    }
    if (ompcc_isnan(a) || ompcc_isnan(b)) {
        return a + b;
    }
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    if (b == 0.0) {
        return a;
    }
    int ea = ompcc_ilogb(a);
    if (ea - ompcc_ilogb(b) > 60) {
        return a + b;
    }
    /* bring a to [1, 2): two exact steps, since 2^-ea alone may not be representable */
    int h1 = -ea / 2;
    int h2 = -ea - h1;
    a = (a * ompcc_pow2(h1)) * ompcc_pow2(h2);
    b = (b * ompcc_pow2(h1)) * ompcc_pow2(h2);
    double al;
    double ah = ompcc_two_prod(a, a, &al);
    double bl;
    double bh = ompcc_two_prod(b, b, &bl);
    double sl;
    double sh = ompcc_dd_add(ah, al, bh, bl, &sl);
    double rl;
    double rh = ompcc_dd_sqrt(sh, sl, &rl);
    return ompcc_scale(rh + rl, ea);
}

float __ompcc_powf(float x, float y) { return (float)__ompcc_pow(x, y); }
float __ompcc_cbrtf(float x) { return (float)__ompcc_cbrt(x); }
float __ompcc_hypotf(float x, float y) { return (float)__ompcc_hypot(x, y); }
