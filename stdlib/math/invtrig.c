/* asin, acos, atan, atan2 of the ompcc device math library.
 *
 * Everything goes through one double-double arctangent: arguments above 1 use
 * atan(x) = pi/2 - atan(1/x); then x = c + d with c = j/16 the nearest table point and
 * atan(x) = atan(c) + atan((x - c) / (1 + x c)), the second argument below 1/32 in
 * magnitude, evaluated by its Taylor series to t^17. asin(x) = atan(x / sqrt(1 - x^2)) and
 * acos(x) = atan(sqrt(1 - x^2) / x) (plus pi for x < 0) with 1 - x^2 and the square root in
 * double-double, so there is no cancellation near |x| = 1. Special cases follow C11 F.10.1.
 * Float versions evaluate in double and round once. */
#include "ompcc_math.h"
#include "internal.h"

#define OMPCC_PIO4 0x1.921fb54442d18p-1
#define OMPCC_3PIO4 0x1.2d97c7f3321d2p+1

/* atan(xh + xl) = hi + *lo for finite xh >= 0, |xl| <= ulp(xh) */
static double ompcc_atan_dd(double xh, double xl, double *lo) {
    int inv = 0;
    if (xh > 1.0) {
        double yh = 1.0 / xh;
        double yl = yh * (__builtin_fma(-yh, xh, 1.0) - yh * xl);
        xh = ompcc_fast_two_sum(yh, yl, &xl);
        inv = 1;
    }
    int j = (int)__builtin_rint(xh * 16.0);
    double c = (double)j * 0.0625;
    double nh = xh - c; /* exact: c = 0 or xh in [c/2, 2c] */
    double dl;
    double ph = ompcc_two_prod(xh, c, &dl);
    double el;
    double dh = ompcc_fast_two_sum(1.0, ph, &el);
    dl += el + xl * c;
    double tl;
    double th = ompcc_dd_div(nh, xl, dh, dl, &tl);
    double z = th * th;
    const double *k = ompcc_atan_c; /* -1/3, 1/5, ..., 1/17 */
    double p = k[7];
    for (int i = 6; i >= 0; i--) {
        p = __builtin_fma(p, z, k[i]);
    }
    double s = (th * z) * p + tl;
    double rl;
    double rh = ompcc_dd_add(ompcc_atan_tab[j][0], ompcc_atan_tab[j][1], th, s, &rl);
    if (inv) {
        rh = ompcc_dd_add(OMPCC_PIO2_HI, OMPCC_PIO2_LO, -rh, -rl, &rl);
    }
    *lo = rl;
    return rh;
}

double __ompcc_atan(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a < 0x1p-27) {
        return x;
    }
    if (a == OMPCC_INF) {
        return __builtin_copysign(OMPCC_PIO2_HI, x);
    }
    double lo;
    double h = ompcc_atan_dd(a, 0.0, &lo);
    return __builtin_copysign(h + lo, x);
}

/* floor(log2|x|) for finite nonzero x */
static int ompcc_ilogb_i(double x) {
    ompcc_u64 u = ompcc_bits(x) & 0x7fffffffffffffffULL;
    if (u < (1ULL << 52)) {
        return (int)((ompcc_bits(x * 0x1p64) >> 52) & 0x7ff) - 1023 - 64;
    }
    return (int)(u >> 52) - 1023;
}

double __ompcc_atan2(double y, double x) {
    if (ompcc_isnan(x) || ompcc_isnan(y)) {
        return x + y;
    }
    double ax = __builtin_fabs(x);
    double ay = __builtin_fabs(y);
    int xneg = (int)(ompcc_bits(x) >> 63);
    if (ay == 0.0) {
        return xneg ? __builtin_copysign(OMPCC_PI_HI, y) : y;
    }
    if (ax == 0.0) {
        return __builtin_copysign(OMPCC_PIO2_HI, y);
    }
    if (ax == OMPCC_INF) {
        if (ay == OMPCC_INF) {
            return __builtin_copysign(xneg ? OMPCC_3PIO4 : OMPCC_PIO4, y);
        }
        return __builtin_copysign(xneg ? OMPCC_PI_HI : 0.0, y);
    }
    if (ay == OMPCC_INF) {
        return __builtin_copysign(OMPCC_PIO2_HI, y);
    }
    int ex = ompcc_ilogb_i(ax);
    int ey = ompcc_ilogb_i(ay);
    double rh, rl;
    if (ey - ex > 60) {
        /* pi/2 -+ |x/y|, which rounds to pi/2 */
        rh = OMPCC_PIO2_HI;
        rl = OMPCC_PIO2_LO;
    } else if (ex - ey > 60) {
        if (!xneg) {
            return __builtin_copysign(ay / ax, y); /* atan(q) = q to 2^-120 */
        }
        return __builtin_copysign(OMPCC_PI_HI, y); /* pi - q rounds to pi */
    } else {
        /* bring both near 1 (exact: their exponents are within 60) so the residual of the
         * quotient neither overflows nor underflows */
        if (ex > 500 || ey > 500) {
            ax *= 0x1p-600;
            ay *= 0x1p-600;
        } else if (ex < -500 || ey < -500) {
            ax *= 0x1p600;
            ay *= 0x1p600;
        }
        double qh = ay / ax;
        double ql = __builtin_fma(-qh, ax, ay) / ax;
        rh = ompcc_atan_dd(qh, ql, &rl);
    }
    if (xneg) {
        rh = ompcc_dd_add(OMPCC_PI_HI, OMPCC_PI_LO, -rh, -rl, &rl);
    }
    return __builtin_copysign(rh + rl, y);
}

/* sqrt(1 - a^2) as hi + *lo for 0 <= a < 1 */
static double ompcc_sqrt1m(double a, double *lo) {
    double pl;
    double ph = ompcc_two_prod(a, a, &pl);
    double wl;
    double wh = ompcc_two_sum(1.0, -ph, &wl);
    wl -= pl;
    wh = ompcc_fast_two_sum(wh, wl, &wl);
    return ompcc_dd_sqrt(wh, wl, lo);
}

double __ompcc_asin(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a > 1.0) {
        return OMPCC_NAN;
    }
    if (a == 1.0) {
        return __builtin_copysign(OMPCC_PIO2_HI, x);
    }
    if (a < 0x1p-26) {
        return x;
    }
    double sl;
    double sh = ompcc_sqrt1m(a, &sl);
    double ql;
    double qh = ompcc_dd_div(a, 0.0, sh, sl, &ql);
    double lo;
    double h = ompcc_atan_dd(qh, ql, &lo);
    return __builtin_copysign(h + lo, x);
}

double __ompcc_acos(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a > 1.0) {
        return OMPCC_NAN;
    }
    if (x == 1.0) {
        return 0.0;
    }
    if (x == -1.0) {
        return OMPCC_PI_HI;
    }
    if (a < 0x1p-57) {
        return OMPCC_PIO2_HI;
    }
    double sl;
    double sh = ompcc_sqrt1m(a, &sl);
    double ql;
    double qh = ompcc_dd_div(sh, sl, a, 0.0, &ql);
    double lo;
    double h = ompcc_atan_dd(qh, ql, &lo);
    if (x < 0.0) {
        h = ompcc_dd_add(OMPCC_PI_HI, OMPCC_PI_LO, -h, -lo, &lo);
    }
    return h + lo;
}

float __ompcc_atanf(float x) { return (float)__ompcc_atan(x); }
float __ompcc_atan2f(float y, float x) { return (float)__ompcc_atan2(y, x); }
float __ompcc_asinf(float x) { return (float)__ompcc_asin(x); }
float __ompcc_acosf(float x) { return (float)__ompcc_acos(x); }
