/* tgamma of the ompcc device math library.
 *
 * - y >= 10: log Gamma(y) = (y - 1/2) log y - y + log(2 pi)/2 + sum_k B_2k / (2k (2k-1) y^(2k-1))
 *   (Stirling, 10 terms: the truncation is below 2^-62 at y = 10), in double-double with the
 *   double-double log of log.c, then exponentiated by the double-double exp core of exp.c.
 * - -10 < x < 10: shift up, Gamma(x) = Gamma(x + n) / (x (x+1) ... (x+n-1)), the product
 *   in double-double (each factor x + j exact as a double-double).
 * - x <= -10: reflection, Gamma(x) = pi / (sin(pi x) Gamma(1 - x)), sin(pi x) after an exact
 *   reduction of x modulo 2 (trig.c).
 * Special cases follow C11 F.10.5.4: tgamma(+-0) = +-inf, negative integers and -inf give
 * NaN, +inf gives +inf; overflow gives +inf and underflow a signed zero. The float version
 * evaluates in double and rounds once. */
#include "ompcc_math.h"
#include "internal.h"

/* log Gamma(yh + yl) as hi + *lo for yh >= 10, |yl| <= ulp(yh) */
static double ompcc_lgamma_stirling(double yh, double yl, double *lo) {
    double ll;
    double lh = __ompcc_i_log_core(yh, &ll);
    double al;
    double ah = ompcc_dd_mul(yh - 0.5, 0.0, lh, ll, &al); /* yh - 1/2 is exact */
    ah = ompcc_dd_add(ah, al, -yh, 0.0, &al);
    ah = ompcc_dd_add(ah, al, OMPCC_HALF_LOG_2PI_HI, OMPCC_HALF_LOG_2PI_LO, &al);
    double w = 1.0 / yh;
    double z = w * w;
    const double *c = ompcc_stirling_c;
    double p = c[9];
    for (int i = 8; i >= 0; i--) {
        p = __builtin_fma(p, z, c[i]);
    }
    /* the series, and the first-order effect of yl: d/dy log Gamma(y) = log y - 1/(2y) */
    double s = w * p + yl * (lh - 0.5 * w);
    return ompcc_dd_add(ah, al, s, 0.0, lo);
}

/* q * 2^k for finite nonzero q of any magnitude and k within a few thousand */
static double ompcc_scale_any(double q, int k) {
    ompcc_u64 u = ompcc_bits(q) & 0x7fffffffffffffffULL;
    int e;
    if (u < (1ULL << 52)) {
        e = (int)((ompcc_bits(q * 0x1p64) >> 52) & 0x7ff) - 1023 - 64;
    } else {
        e = (int)(u >> 52) - 1023;
    }
    /* q * 2^-e is in [1, 2): two exact steps since 2^-e alone may not be representable */
    int e1 = -e / 2;
    q = (q * ompcc_pow2(e1)) * ompcc_pow2(-e - e1);
    return ompcc_scale(q, k + e);
}

double __ompcc_tgamma(double x) {
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (x == OMPCC_INF) {
        return x;
    }
    if (x == 0.0) {
        return 1.0 / x;
    }
    if (x < 0.0 && __builtin_trunc(x) == x) {
        return OMPCC_NAN; /* negative integers and -inf */
    }
    if (x > 172.0) {
        return OMPCC_INF;
    }
    if (__builtin_fabs(x) < 0x1p-56) {
        return 1.0 / x; /* Gamma(x) = 1/x - euler_gamma + O(x) */
    }
    int k;
    double h, lo, gl;
    if (x >= 10.0) {
        double g = ompcc_lgamma_stirling(x, 0.0, &gl);
        h = __ompcc_i_exp_core(g, gl, &k, &lo);
        return ompcc_scale(h + lo, k);
    }
    if (x > -10.0) {
        int n = (int)__builtin_ceil(10.0 - x);
        double yl;
        double yh = ompcc_two_sum(x, (double)n, &yl);
        double g = ompcc_lgamma_stirling(yh, yl, &gl);
        h = __ompcc_i_exp_core(g, gl, &k, &lo);
        double pl = 0.0;
        double ph = x;
        for (int j = 1; j < n; j++) {
            double fl;
            double fh = ompcc_two_sum(x, (double)j, &fl);
            ph = ompcc_dd_mul(ph, pl, fh, fl, &pl);
        }
        double ql;
        double qh = ompcc_dd_div(h, lo, ph, pl, &ql);
        return ompcc_scale_any(qh + ql, k);
    }
    /* reflection; |Gamma(x)| < 2^-1075 beyond x = -200 */
    double sign = ((long long)__builtin_trunc(x) & 1) ? 1.0 : -1.0;
    if (x < -200.0) {
        return sign * 0.0;
    }
    double r = x - 2.0 * __builtin_rint(0.5 * x); /* exact, in [-1, 1] */
    if (r > 0.5) {
        r = 1.0 - r;
    } else if (r < -0.5) {
        r = -1.0 - r;
    }
    double sl;
    double sh = __ompcc_i_sinpi(r, &sl);
    double yl;
    double yh = ompcc_two_sum(1.0, -x, &yl);
    double g = ompcc_lgamma_stirling(yh, yl, &gl);
    h = __ompcc_i_exp_core(g, gl, &k, &lo);
    double dl;
    double dh = ompcc_dd_mul(sh, sl, h, lo, &dl);
    double ql;
    double qh = ompcc_dd_div(OMPCC_PI_HI, OMPCC_PI_LO, dh, dl, &ql);
    return ompcc_scale_any(qh + ql, -k);
}

float __ompcc_tgammaf(float x) { return (float)__ompcc_tgamma((double)x); }
