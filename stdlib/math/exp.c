/* Exponential family of the ompcc device math library: exp, exp2, expm1, sinh, cosh, tanh.
 *
 * Method: x = k ln2 + r with |r| <= ln2/2 (ln2 split in two doubles; with fma the first
 * step x - k*LN2_HI is exact), e^r - 1 from its Taylor series to r^15 (truncation below
 * 2^-60 relative), kept as a double-double so callers can cancel against 1 without losing
 * accuracy. The float versions evaluate the double ones and round once. */
#include "ompcc_math.h"
#include "internal.h"

/* e^r - 1 = hi + *lo for |r| <= 0.36, relative error about 2^-57. */
static double ompcc_expm1_poly(double r, double *lo) {
    const double *c = ompcc_exp_c;
    double p = c[13];
    for (int i = 12; i >= 0; i--) {
        p = __builtin_fma(p, r, c[i]);
    }
    double q = (r * r) * p;
    return ompcc_fast_two_sum(r, q, lo);
}

double __ompcc_i_exp_core(double xh, double xl, int *k, double *lo) {
    double kd = __builtin_rint(xh * OMPCC_INV_LN2_HI);
    double r = __builtin_fma(-kd, OMPCC_LN2_HI, xh); /* exact */
    double rl = __builtin_fma(-kd, OMPCC_LN2_LO, xl);
    double ul;
    double uh = ompcc_expm1_poly(r, &ul);
    /* e^(r + rl) = (1 + uh + ul) * (1 + rl) to within rl^2 */
    double t = ul + rl * (1.0 + uh);
    double hl;
    double h = ompcc_fast_two_sum(1.0, uh, &hl);
    *lo = hl + t;
    *k = (int)kd;
    return h;
}

double __ompcc_exp(double x) {
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (x > 709.8) {
        return OMPCC_INF;
    }
    if (x < -746.0) {
        return 0.0;
    }
    if (__builtin_fabs(x) < 0x1p-54) {
        return 1.0 + x;
    }
    int k;
    double lo;
    double h = __ompcc_i_exp_core(x, 0.0, &k, &lo);
    return ompcc_scale(h + lo, k);
}

double __ompcc_exp2(double x) {
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (x >= 1024.0) {
        return OMPCC_INF;
    }
    if (x < -1080.0) {
        return 0.0;
    }
    double kd = __builtin_rint(x);
    double r = x - kd; /* exact */
    double tl;
    double th = ompcc_two_prod(r, OMPCC_LN2_HI, &tl);
    tl += r * OMPCC_LN2_LO;
    int k;
    double lo;
    double h = __ompcc_i_exp_core(th, tl, &k, &lo);
    return ompcc_scale(h + lo, k + (int)kd);
}

double __ompcc_expm1(double x) {
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (x > 709.8) {
        return OMPCC_INF;
    }
    if (x < -40.0) {
        return -1.0; /* -1 + e^-40 rounds to -1 */
    }
    double ax = __builtin_fabs(x);
    if (ax < 0x1p-54) {
        return x;
    }
    if (ax < 0.34) {
        double ul;
        double uh = ompcc_expm1_poly(x, &ul);
        return uh + ul;
    }
    int k;
    double lo;
    double h = __ompcc_i_exp_core(x, 0.0, &k, &lo);
    if (k > 1000) {
        return ompcc_scale(h + lo, k);
    }
    /* 2^k (h + lo) - 1 with the scaled parts exact and the subtraction error kept */
    double a = h * ompcc_pow2(k);
    double b = lo * ompcc_pow2(k);
    double e;
    double s = ompcc_two_sum(a, -1.0, &e);
    return s + (e + b);
}

double __ompcc_sinh(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a < 0x1p-27) {
        return x;
    }
    if (a < 1.0) {
        /* odd Taylor series: x + x^3/3! + ... + x^21/21! */
        double z = x * x;
        const double *c = ompcc_sinh_c;
        double p = c[9];
        for (int i = 8; i >= 0; i--) {
            p = __builtin_fma(p, z, c[i]);
        }
        return x + (x * z) * p;
    }
    if (a > 711.0) {
        return __builtin_copysign(OMPCC_INF, x);
    }
    int k;
    double lo;
    double h = __ompcc_i_exp_core(a, 0.0, &k, &lo);
    if (a > 22.0) {
        return __builtin_copysign(ompcc_scale(h + lo, k - 1), x);
    }
    double eh = h * ompcc_pow2(k);
    double el = lo * ompcc_pow2(k);
    double ih = 1.0 / eh;
    double il = ih * (__builtin_fma(-eh, ih, 1.0) - el * ih);
    double sl;
    double sh = ompcc_dd_add(eh, el, -ih, -il, &sl);
    return __builtin_copysign(0.5 * (sh + sl), x);
}

double __ompcc_cosh(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x * x;
    }
    if (a < 0x1p-27) {
        return 1.0;
    }
    if (a > 711.0) {
        return OMPCC_INF;
    }
    int k;
    double lo;
    double h = __ompcc_i_exp_core(a, 0.0, &k, &lo);
    if (a > 22.0) {
        return ompcc_scale(h + lo, k - 1);
    }
    double eh = h * ompcc_pow2(k);
    double el = lo * ompcc_pow2(k);
    double ih = 1.0 / eh;
    double il = ih * (__builtin_fma(-eh, ih, 1.0) - el * ih);
    double sl;
    double sh = ompcc_dd_add(eh, el, ih, il, &sl);
    return 0.5 * (sh + sl);
}

double __ompcc_tanh(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a < 0x1p-27) {
        return x;
    }
    if (a > 22.0) {
        return __builtin_copysign(1.0, x);
    }
    if (a < 0.17) {
        /* u / (u + 2) with u = e^(2a) - 1 */
        double ul;
        double uh = ompcc_expm1_poly(2.0 * a, &ul);
        double dl;
        double dh = ompcc_fast_two_sum(2.0, uh, &dl);
        dl += ul;
        double ql;
        double qh = ompcc_dd_div(uh, ul, dh, dl, &ql);
        return __builtin_copysign(qh + ql, x);
    }
    /* 1 - 2 / (e^(2a) + 1) */
    int k;
    double lo;
    double h = __ompcc_i_exp_core(2.0 * a, 0.0, &k, &lo);
    double eh = h * ompcc_pow2(k);
    double el = lo * ompcc_pow2(k);
    double dl;
    double dh = ompcc_two_sum(eh, 1.0, &dl);
    dl += el;
    double th = 2.0 / dh;
    double tl = (__builtin_fma(-th, dh, 2.0) - th * dl) / dh;
    double e;
    double s = ompcc_two_sum(1.0, -th, &e);
    return __builtin_copysign(s + (e - tl), x);
}

float __ompcc_expf(float x) { return (float)__ompcc_exp(x); }
float __ompcc_exp2f(float x) { return (float)__ompcc_exp2(x); }
float __ompcc_expm1f(float x) { return (float)__ompcc_expm1(x); }
float __ompcc_sinhf(float x) { return (float)__ompcc_sinh(x); }
float __ompcc_coshf(float x) { return (float)__ompcc_cosh(x); }
float __ompcc_tanhf(float x) { return (float)__ompcc_tanh(x); }
