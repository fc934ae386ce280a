/* Logarithm family of the ompcc device math library: log, log2, log10, log1p, asinh, acosh,
 * atanh, and the internal double-double logarithm used by pow.
 *
 * Method: x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact), s = f / (2 + f) and
 * log(m) = 2 atanh(s) = 2s (1 + s^2/3 + s^4/5 + ...) with |s| <= 0.172. The s, s^2/3 and
 * s^4/5 terms are carried in double-double and the rest (to s^30) in double, so the result
 * hi + lo has a relative error near 2^-66 -- enough for pow, where y log x is amplified.
 * The inverse hyperbolic functions are written as log1p of a double-double argument so no
 * cancellation is ever rounded away. Float versions evaluate in double and round once. */
#include "ompcc_math.h"
#include "internal.h"

double __ompcc_i_log_core(double x, double *lo) {
    ompcc_u64 u = ompcc_bits(x);
    int e = 0;
    if (u < (1ULL << 52)) { /* subnormal */
        x *= 0x1p54;
        u = ompcc_bits(x);
        e = -54;
    }
    e += (int)(u >> 52) - 1023;
    double m = ompcc_from_bits((u & 0xfffffffffffffULL) | (1023ULL << 52));
    if (m > 0x1.6a09e667f3bcdp+0) {
        m *= 0.5;
        e += 1;
    }
    double f = m - 1.0; /* exact */
    double dl;
    double dh = ompcc_fast_two_sum(2.0, f, &dl);
    double sh = f / dh;
    double sl = (__builtin_fma(-sh, dh, f) - sh * dl) / dh;
    double zl;
    double zh = ompcc_two_prod(sh, sh, &zl);
    zl += 2.0 * sh * sl;
    const double *c = ompcc_log_c; /* 1/7, 1/9, ..., 1/31 */
    double tail = c[12];
    for (int i = 11; i >= 0; i--) {
        tail = __builtin_fma(tail, zh, c[i]);
    }
    double z2l;
    double z2h = ompcc_dd_mul(zh, zl, zh, zl, &z2l);
    double t = (z2h * zh) * tail;
    double al;
    double ah = ompcc_dd_mul(zh, zl, OMPCC_THIRD_HI, OMPCC_THIRD_LO, &al);
    double bl;
    double bh = ompcc_dd_mul(z2h, z2l, OMPCC_FIFTH_HI, OMPCC_FIFTH_LO, &bl);
    double wl;
    double wh = ompcc_dd_add(ah, al, bh, bl, &wl);
    wl += t;
    double ol;
    double oh = ompcc_fast_two_sum(1.0, wh, &ol);
    ol += wl;
    double ll;
    double lh = ompcc_dd_mul(2.0 * sh, 2.0 * sl, oh, ol, &ll);
    double ed = (double)e;
    double pl;
    double ph = ompcc_two_prod(ed, OMPCC_LN2_HI, &pl);
    pl += ed * OMPCC_LN2_LO;
    return ompcc_dd_add(ph, pl, lh, ll, lo);
}

double __ompcc_i_log1p_dd(double gh, double gl, double *lo) {
    double ul;
    double uh = ompcc_two_sum(1.0, gh, &ul);
    ul += gl;
    double hl;
    double h = __ompcc_i_log_core(uh, &hl);
    /* log(uh + ul) = log(uh) + ul/uh, the next term (ul/uh)^2/2 being below 2^-106 */
    return ompcc_dd_add(h, hl, ul / uh, 0.0, lo);
}

/* NaN, negative, zero and infinite arguments of log, log2, log10; returns 1 if handled. */
static int ompcc_log_special(double x, double *res) {
    if (ompcc_isnan(x)) {
        *res = x + x;
        return 1;
    }
    if (x < 0.0) {
        *res = OMPCC_NAN;
        return 1;
    }
    if (x == 0.0) {
        *res = -OMPCC_INF;
        return 1;
    }
    if (x == OMPCC_INF) {
        *res = x;
        return 1;
    }
    return 0;
}

double __ompcc_log(double x) {
    double r;
    if (ompcc_log_special(x, &r)) {
        return r;
    }
    double lo;
    double hi = __ompcc_i_log_core(x, &lo);
    return hi + lo;
}

double __ompcc_log2(double x) {
    double r;
    if (ompcc_log_special(x, &r)) {
        return r;
    }
    double lo;
    double hi = __ompcc_i_log_core(x, &lo);
    double pl;
    double ph = ompcc_dd_mul(hi, lo, OMPCC_INV_LN2_HI, OMPCC_INV_LN2_LO, &pl);
    return ph + pl;
}

double __ompcc_log10(double x) {
    double r;
    if (ompcc_log_special(x, &r)) {
        return r;
    }
    double lo;
    double hi = __ompcc_i_log_core(x, &lo);
    double pl;
    double ph = ompcc_dd_mul(hi, lo, OMPCC_INV_LN10_HI, OMPCC_INV_LN10_LO, &pl);
    return ph + pl;
}

double __ompcc_log1p(double x) {
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (x < -1.0) {
        return OMPCC_NAN;
    }
    if (x == -1.0) {
        return -OMPCC_INF;
    }
    if (x == OMPCC_INF) {
        return x;
    }
    if (__builtin_fabs(x) < 0x1p-54) {
        return x;
    }
    double lo;
    double hi = __ompcc_i_log1p_dd(x, 0.0, &lo);
    return hi + lo;
}

double __ompcc_asinh(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x) || a == OMPCC_INF) {
        return x + x;
    }
    if (a < 0x1p-28) {
        return x;
    }
    double hi, lo;
    if (a > 0x1p28) {
        /* log(2a): the dropped 1/(4a^2) is below 2^-58 relative */
        hi = __ompcc_i_log_core(a, &lo);
        hi = ompcc_dd_add(hi, lo, OMPCC_LN2_HI, OMPCC_LN2_LO, &lo);
    } else {
        /* log1p(a + a^2 / (1 + sqrt(1 + a^2))) */
        double tl;
        double th = ompcc_two_prod(a, a, &tl);
        double wl;
        double wh = ompcc_two_sum(1.0, th, &wl);
        wl += tl;
        double sl;
        double sh = ompcc_dd_sqrt(wh, wl, &sl);
        double dl;
        double dh = ompcc_two_sum(1.0, sh, &dl);
        dl += sl;
        double ql;
        double qh = ompcc_dd_div(th, tl, dh, dl, &ql);
        double gl;
        double gh = ompcc_dd_add(a, 0.0, qh, ql, &gl);
        hi = __ompcc_i_log1p_dd(gh, gl, &lo);
    }
    return __builtin_copysign(hi + lo, x);
}

double __ompcc_acosh(double x) {
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (x < 1.0) {
        return OMPCC_NAN;
    }
    if (x == OMPCC_INF) {
        return x;
    }
    double hi, lo;
    if (x > 0x1p28) {
        hi = __ompcc_i_log_core(x, &lo);
        hi = ompcc_dd_add(hi, lo, OMPCC_LN2_HI, OMPCC_LN2_LO, &lo);
        return hi + lo;
    }
    /* log1p(t + sqrt(t (t + 2))) with t = x - 1 (exact) */
    double t = x - 1.0;
    double vl;
    double vh = ompcc_two_sum(t, 2.0, &vl);
    double pl;
    double ph = ompcc_dd_mul(t, 0.0, vh, vl, &pl);
    if (ph == 0.0) {
        return 0.0;
    }
    double sl;
    double sh = ompcc_dd_sqrt(ph, pl, &sl);
    double gl;
    double gh = ompcc_dd_add(t, 0.0, sh, sl, &gl);
    hi = __ompcc_i_log1p_dd(gh, gl, &lo);
    return hi + lo;
}

double __ompcc_atanh(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a > 1.0) {
        return OMPCC_NAN;
    }
    if (a == 1.0) {
        return __builtin_copysign(OMPCC_INF, x);
    }
    if (a < 0x1p-28) {
        return x;
    }
    /* atanh(a) = log1p(2a / (1 - a)) / 2 */
    double dl;
    double dh = ompcc_two_sum(1.0, -a, &dl);
    double ql;
    double qh = ompcc_dd_div(2.0 * a, 0.0, dh, dl, &ql);
    double lo;
    double hi = __ompcc_i_log1p_dd(qh, ql, &lo);
    return __builtin_copysign(0.5 * (hi + lo), x);
}

float __ompcc_logf(float x) { return (float)__ompcc_log(x); }
float __ompcc_log2f(float x) { return (float)__ompcc_log2(x); }
float __ompcc_log10f(float x) { return (float)__ompcc_log10(x); }
float __ompcc_log1pf(float x) { return (float)__ompcc_log1p(x); }
float __ompcc_asinhf(float x) { return (float)__ompcc_asinh(x); }
float __ompcc_acoshf(float x) { return (float)__ompcc_acosh(x); }
float __ompcc_atanhf(float x) { return (float)__ompcc_atanh(x); }
