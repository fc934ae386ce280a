/* Accuracy driver for the ompcc device math library, built on the host with cc -O2 and
 * linked with glibc's libm. For every function it evaluates >= 100,000 deterministic inputs
 * (special values, uniformly random bit patterns, random values in the function's
 * interesting range, values near its hard points) and prints one line:
 *
 *   name  max_ulp_vs_glibc  max_ulp_vs_reference  inputs  special_mismatches  worst_input(s)
 *
 * (the worst input is the one with the largest error against the reference; for functions
 * without a reference, the one farthest from glibc; ACC_DEBUG=1 traces glibc distances)
 *
 * ulp_vs_glibc: distance in representable numbers between our result and glibc's result in
 * the same precision (0 = bit-identical; NaN matches NaN; -0 and +0 differ).
 * ulp_vs_reference: |ours - ref| in ulps of our precision, where ref is glibc's result in
 * the next larger precision (long double for double, double for float), i.e. close to the
 * true error. Exact functions print only the distance (reference column = distance).
 * special_mismatches: inputs where NaN-ness, the sign of a zero or of an infinite result
 * differs from glibc (must be 0 for every function). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompcc_math.h"

#define N 100000

static uint64_t rng_state;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static void seed(const char *name) {
    uint64_t h = 1469598103934665603ULL;
    for (; *name; name++) h = (h ^ (uint8_t)*name) * 1099511628211ULL;
    rng_state = h;
}
static double unif(void) { return (double)(rnd() >> 11) * 0x1p-53; }
static double rbits(void) {
    uint64_t u = rnd();
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static float rbitsf(void) {
    uint32_t u = (uint32_t)(rnd() >> 32);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/* random magnitude with exponent uniform in [lo, hi], random sign if sgn */
static double logu(int lo, int hi, int sgn) {
    double m = 1.0 + unif();
    int e = lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
    double v = ldexp(m, e);
    return (sgn && (rnd() & 1)) ? -v : v;
}

static int64_t ord64(double x) {
    int64_t i;
    memcpy(&i, &x, 8);
    return i < 0 ? -(i & INT64_MAX) - 1 : i; /* -0 sits one below +0 */
}
static int32_t ord32(float x) {
    int32_t i;
    memcpy(&i, &x, 4);
    return i < 0 ? -(i & INT32_MAX) - 1 : i;
}
/* distance in representable doubles; NaN == NaN; 1e18 for NaN vs number */
static double dist64(double a, double b) {
    if (isnan(a) || isnan(b)) return (isnan(a) && isnan(b)) ? 0 : 1e18;
    int64_t d = ord64(a) - ord64(b);
    return d < 0 ? -(double)d : (double)d;
}
static double dist32(float a, float b) {
    if (isnan(a) || isnan(b)) return (isnan(a) && isnan(b)) ? 0 : 1e18;
    int64_t d = (int64_t)ord32(a) - (int64_t)ord32(b);
    return d < 0 ? -(double)d : (double)d;
}
/* error of a double result against a long double reference, in double ulps */
static double err64(double a, long double r, double glibc) {
    if (isnan(r) || isinf(r) || fabsl(r) > DBL_MAX || isnan(a) || isinf(a))
        return dist64(a, glibc);
    int e;
    frexpl(r, &e);
    if (e < -1021) e = -1021;
    long double u = ldexpl(1.0L, e - 53);
    return (double)(fabsl((long double)a - r) / u);
}
static double err32(float a, double r, float glibc) {
    if (isnan(r) || isinf(r) || fabs(r) > FLT_MAX || isnan(a) || isinf(a))
        return dist32(a, glibc);
    int e;
    frexp(r, &e);
    if (e < -125) e = -125;
    double u = ldexp(1.0, e - 24);
    return fabs((double)a - r) / u;
}

/* NaN-ness, the sign of a zero result and the sign of an infinite result must match glibc
 * exactly for every function, whatever its ulp bound */
static int special64(double a, double g) {
    if (isnan(a) != isnan(g)) return 1;
    if (a == 0 && g == 0 && signbit(a) != signbit(g)) return 1;
    if (isinf(a) && isinf(g) && a != g) return 1;
    return 0;
}
static int special32(float a, float g) { return special64((double)a, (double)g); }

static long n_inputs(long base) {
    const char *s = getenv("ACC_SCALE"); /* larger local runs: ACC_SCALE=10 */
    long k = s ? atol(s) : 1;
    return base * (k > 0 ? k : 1);
}

static const double specials[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 10.0, -10.0, 0.25, 1.5, -1.5,
    INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, 0x1p-1074, -0x1p-1074,
    0x1p-1022 * 0.75, 1e-300, 1e300, 709.782712893384, 709.79, -708.4, -745.13, -745.14,
    710.475860073944, 1024.0, -1074.0, -1075.0, 0x1p-28, 0x1p-54, 1e22, 1e100,
    6381956970095103.0 * 0x1p797, 0x1.921fb54442d18p+0, 0x1.921fb54442d18p+1, 3.5, 4.5,
    -2.5, 0.9999999999999999, 1.0000000000000002, 26.5, 27.5, 0.84375, 6.0, 28.0, -28.0};
#define NSPEC ((int)(sizeof specials / sizeof specials[0]))

enum near { NEAR_NONE, NEAR_PIO2, NEAR_ONE, NEAR_ZERO, NEAR_INT };

/* unary input i of N for a function with interesting range [lo, hi] */
static double input1(int i, double lo, double hi, int near) {
    if (i < NSPEC) return specials[i];
    switch (i % 4) {
    case 0: return rbits();
    case 1: return lo + (hi - lo) * unif();
    case 2:
        switch (near) {
        case NEAR_PIO2: {
            double k = (double)(int64_t)(rnd() % 2000000) - 1000000.0;
            if (rnd() & 1) k = (double)(rnd() % 64);
            return k * 0x1.921fb54442d18p+0 + logu(-60, -20, 1) * (rnd() & 1);
        }
        case NEAR_ONE: return 1.0 + logu(-60, -1, 1);
        case NEAR_INT: return (double)(int64_t)(rnd() % 200) - 100.0 + (rnd() % 3) * 0.5;
        default: return logu(-1074, 0, 1);
        }
    default: return logu(-30, 12, 1);
    }
}

typedef double (*fd1)(double);
typedef float (*ff1)(float);
typedef long double (*fl1)(long double);
typedef double (*fd2)(double, double);
typedef float (*ff2)(float, float);
typedef long double (*fl2)(long double, long double);

static long n_special; /* special-value mismatches of the function being measured */

static void report(const char *name, double md, double mr, long n, double wx, double wy,
                   int two) {
    if (two)
        printf("%-12s %.3f %.3f %ld %ld %a %a\n", name, md, mr, n, n_special, wx, wy);
    else
        printf("%-12s %.3f %.3f %ld %ld %a\n", name, md, mr, n, n_special, wx);
    n_special = 0;
}

static void test1(const char *name, fd1 ours, fd1 ref, fl1 refl, ff1 oursf, ff1 reff,
                  double lo, double hi, int near) {
    char fname[32];
    double md = 0, mr = 0, wx = 0;
    seed(name);
    long n = n_inputs(N);
    for (long i = 0; i < n; i++) {
        double x = input1((int)(i % 2000000000), lo, hi, near);
        double a = ours(x), g = ref(x);
        n_special += special64(a, g);
        double d = dist64(a, g);
        double r = refl ? err64(a, refl((long double)x), g) : d;
        if (getenv("ACC_DEBUG") && d > md) fprintf(stderr, "%s dist %g at %a: %a vs %a\n", name, d, x, a, g);
        if (r > mr || (!refl && d > md)) wx = x;
        if (d > md) md = d;
        if (r > mr) mr = r;
    }
    report(name, md, mr, n, wx, 0, 0);
    snprintf(fname, sizeof fname, "%sf", name);
    md = mr = wx = 0;
    seed(fname);
    for (long i = 0; i < n; i++) {
        int ii = (int)(i % 2000000000);
        float x = (ii % 4 == 0 && ii >= NSPEC) ? rbitsf() : (float)input1(ii, lo, hi, near);
        float a = oursf(x), g = reff(x);
        n_special += special32(a, g);
        double d = dist32(a, g);
        double r = refl ? err32(a, ref((double)x), g) : d;
        if (r > mr || (!refl && d > md)) wx = x;
        if (d > md) md = d;
        if (r > mr) mr = r;
    }
    report(fname, md, mr, n, wx, 0, 0);
}

/* binary input pair i for ranges [xlo, xhi] x [ylo, yhi] */
static void input2(int i, double xlo, double xhi, double ylo, double yhi, int intx,
                   double *x, double *y) {
    if (i < NSPEC * NSPEC) {
        *x = specials[i / NSPEC];
        *y = specials[i % NSPEC];
        return;
    }
    switch (i % 4) {
    case 0: *x = rbits(); *y = rbits(); return;
    case 1: *x = xlo + (xhi - xlo) * unif(); *y = ylo + (yhi - ylo) * unif(); return;
    case 2:
        if (intx) { /* pow: near 1 with large exponents, negative bases with integers */
            if (rnd() & 1) {
                *x = 1.0 + logu(-50, -5, 1);
                *y = logu(0, 40, 1);
            } else {
                *x = -logu(-4, 4, 0);
                *y = (double)(int64_t)(rnd() % 400) - 200.0;
            }
            return;
        }
        *x = logu(-1074, 1023, 1); *y = logu(-1074, 1023, 1); return;
    default: *x = logu(-30, 12, 1); *y = logu(-30, 12, 1); return;
    }
}

static void test2(const char *name, fd2 ours, fd2 ref, fl2 refl, ff2 oursf, ff2 reff,
                  double xlo, double xhi, double ylo, double yhi, int intx) {
    char fname[32];
    double md = 0, mr = 0, wx = 0, wy = 0;
    seed(name);
    long n = n_inputs(N) + NSPEC * NSPEC;
    for (long i = 0; i < n; i++) {
        double x, y;
        input2((int)i, xlo, xhi, ylo, yhi, intx, &x, &y);
        double a = ours(x, y), g = ref(x, y);
        n_special += special64(a, g);
        double d = dist64(a, g);
        double r = refl ? err64(a, refl((long double)x, (long double)y), g) : d;
        if (r > mr || (!refl && d > md)) { wx = x; wy = y; }
        if (d > md) md = d;
        if (r > mr) mr = r;
    }
    report(name, md, mr, n, wx, wy, 1);
    snprintf(fname, sizeof fname, "%sf", name);
    md = mr = wx = wy = 0;
    seed(fname);
    for (long i = 0; i < n; i++) {
        double xd, yd;
        input2((int)i, xlo, xhi, ylo, yhi, intx, &xd, &yd);
        float x = (float)xd, y = (float)yd;
        if (i % 4 == 0 && i >= NSPEC * NSPEC) { x = rbitsf(); y = rbitsf(); }
        float a = oursf(x, y), g = reff(x, y);
        n_special += special32(a, g);
        double d = dist32(a, g);
        double r = refl ? err32(a, ref((double)x, (double)y), g) : d;
        if (r > mr || (!refl && d > md)) { wx = x; wy = y; }
        if (d > md) md = d;
        if (r > mr) mr = r;
    }
    report(fname, md, mr, n, wx, wy, 1);
}

static void test_misc(void) {
    /* fma */
    double md = 0, wx = 0;
    seed("fma");
    for (int i = 0; i < N; i++) {
        double x, y, z;
        input2(i, -10, 10, -10, 10, 0, &x, &y);
        z = (i % 3 == 0) ? rbits() : -x * y * (1.0 + logu(-60, -1, 1));
        double d = dist64(__ompcc_fma(x, y, z), fma(x, y, z));
        if (d > md) { md = d; wx = x; }
    }
    report("fma", md, md, N, wx, 0, 0);
    md = 0;
    seed("fmaf");
    for (int i = 0; i < N; i++) {
        float x = rbitsf(), y = rbitsf(), z = rbitsf();
        if (i % 2) { x = (float)logu(-20, 20, 1); y = (float)logu(-20, 20, 1); z = -x * y; }
        double d = dist32(__ompcc_fmaf(x, y, z), fmaf(x, y, z));
        if (d > md) { md = d; wx = x; }
    }
    report("fmaf", md, md, N, wx, 0, 0);
    /* ldexp */
    md = 0;
    seed("ldexp");
    for (int i = 0; i < N; i++) {
        double x = input1(i, -10, 10, NEAR_ZERO);
        int e = (int)(rnd() % 4400) - 2200;
        if (i % 5 == 0) e = (int)(rnd() % 120) - 60;
        if (i % 7 == 0) e = (rnd() & 1) ? 1 << 30 : -(1 << 30);
        double d = dist64(__ompcc_ldexp(x, e), ldexp(x, e));
        if (d > md) { md = d; wx = x; }
    }
    report("ldexp", md, md, N, wx, 0, 0);
    md = 0;
    seed("ldexpf");
    for (int i = 0; i < N; i++) {
        float x = (i % 2) ? rbitsf() : (float)input1(i, -10, 10, NEAR_ZERO);
        int e = (int)(rnd() % 600) - 300;
        if (i % 7 == 0) e = (rnd() & 1) ? 1 << 30 : -(1 << 30);
        double d = dist32(__ompcc_ldexpf(x, e), ldexpf(x, e));
        if (d > md) { md = d; wx = x; }
    }
    report("ldexpf", md, md, N, wx, 0, 0);
    /* frexp, modf: both outputs must match */
    md = 0;
    seed("frexp");
    for (int i = 0; i < N; i++) {
        double x = input1(i, -10, 10, NEAR_ZERO);
        int e1 = 7, e2 = 7;
        double d = dist64(__ompcc_frexp(x, &e1), frexp(x, &e2)) + (e1 != e2 ? 1e18 : 0);
        double i1 = 1, i2 = 1;
        d += dist64(__ompcc_modf(x, &i1), modf(x, &i2)) + dist64(i1, i2);
        if (d > md) { md = d; wx = x; }
    }
    report("frexp+modf", md, md, N, wx, 0, 0);
    md = 0;
    seed("frexpf");
    for (int i = 0; i < N; i++) {
        float x = (i % 2) ? rbitsf() : (float)input1(i, -10, 10, NEAR_ZERO);
        int e1 = 7, e2 = 7;
        double d = dist32(__ompcc_frexpf(x, &e1), frexpf(x, &e2)) + (e1 != e2 ? 1e18 : 0);
        float i1 = 1, i2 = 1;
        d += dist32(__ompcc_modff(x, &i1), modff(x, &i2)) + dist32(i1, i2);
        if (d > md) { md = d; wx = x; }
    }
    report("frexpf+modff", md, md, N, wx, 0, 0);
    /* integer-valued: lrint, llrint, lround, llround, ilogb (and their float versions) */
    long bad = 0;
    seed("lround");
    for (int i = 0; i < N; i++) {
        double x = input1(i, -1e19, 1e19, NEAR_INT);
        if (i % 3 == 0) x = logu(-5, 64, 1);
        float xf = (i % 5 == 0) ? rbitsf() : (float)x;
        bad += __ompcc_lrint(x) != lrint(x);
        bad += __ompcc_llrint(x) != llrint(x);
        bad += __ompcc_lround(x) != lround(x);
        bad += __ompcc_llround(x) != llround(x);
        bad += __ompcc_ilogb(x) != ilogb(x);
        bad += __ompcc_lrintf(xf) != lrintf(xf);
        bad += __ompcc_llrintf(xf) != llrintf(xf);
        bad += __ompcc_lroundf(xf) != lroundf(xf);
        bad += __ompcc_llroundf(xf) != llroundf(xf);
        bad += __ompcc_ilogbf(xf) != ilogbf(xf);
        if (bad && !wx) wx = x;
    }
    report("lrint+lround+ilogb", (double)bad, (double)bad, N, wx, 0, 0);
    /* scalbn, scalbln */
    md = 0;
    seed("scalbn");
    for (int i = 0; i < N; i++) {
        double x = input1(i, -10, 10, NEAR_ZERO);
        float xf = (i % 2) ? rbitsf() : (float)x;
        long e = (long)(rnd() % 4400) - 2200;
        if (i % 7 == 0) e = (rnd() & 1) ? 1L << 40 : -(1L << 40);
        double d = dist64(__ompcc_scalbln(x, e), scalbln(x, e));
        d += dist64(__ompcc_scalbn(x, (int)(e % 3000)), scalbn(x, (int)(e % 3000)));
        d += dist32(__ompcc_scalblnf(xf, e), scalblnf(xf, e));
        d += dist32(__ompcc_scalbnf(xf, (int)(e % 400)), scalbnf(xf, (int)(e % 400)));
        if (d > md) { md = d; wx = x; }
    }
    report("scalbn+scalbln", md, md, N, wx, 0, 0);
    /* abs, labs, llabs */
    bad = 0;
    seed("abs");
    for (int i = 0; i < N; i++) {
        long long v = (long long)rnd();
        if (i == 0) v = INT64_MIN + 1;
        int iv = (int)v;
        if (iv != INT32_MIN && __ompcc_abs(iv) != abs(iv)) bad++;
        if (v != INT64_MIN && __ompcc_labs((long)v) != labs((long)v)) bad++;
        if (v != INT64_MIN && __ompcc_llabs(v) != llabs(v)) bad++;
    }
    report("abs+labs+llabs", (double)bad, (double)bad, N, 0, 0, 0);
}

/* glibc 2.36's remainder returns +0 for some negative x when y is subnormal (e.g.
 * remainder(-0x1.f39a4c7f0f1f4p-943, 0x1p-1074)); IEEE 754 5.3.1 gives a zero remainder the
 * sign of x, which is what ours returns. Compare against glibc with that sign restored. */
static double g_remainder(double x, double y) {
    double r = remainder(x, y);
    return r == 0 ? copysign(0.0, x) : r;
}

int main(void) {
    const double PI = 3.141592653589793;
    test1("sqrt", __ompcc_sqrt, sqrt, NULL, __ompcc_sqrtf, sqrtf, 0, 100, NEAR_ZERO);
    test1("fabs", __ompcc_fabs, fabs, NULL, __ompcc_fabsf, fabsf, -10, 10, NEAR_ZERO);
    test1("floor", __ompcc_floor, floor, NULL, __ompcc_floorf, floorf, -10, 10, NEAR_INT);
    test1("ceil", __ompcc_ceil, ceil, NULL, __ompcc_ceilf, ceilf, -10, 10, NEAR_INT);
    test1("trunc", __ompcc_trunc, trunc, NULL, __ompcc_truncf, truncf, -10, 10, NEAR_INT);
    test1("rint", __ompcc_rint, rint, NULL, __ompcc_rintf, rintf, -10, 10, NEAR_INT);
    test1("round", __ompcc_round, round, NULL, __ompcc_roundf, roundf, -10, 10, NEAR_INT);
    test2("fmin", __ompcc_fmin, fmin, NULL, __ompcc_fminf, fminf, -10, 10, -10, 10, 0);
    test2("fmax", __ompcc_fmax, fmax, NULL, __ompcc_fmaxf, fmaxf, -10, 10, -10, 10, 0);
    test2("fdim", __ompcc_fdim, fdim, NULL, __ompcc_fdimf, fdimf, -10, 10, -10, 10, 0);
    test2("copysign", __ompcc_copysign, copysign, NULL, __ompcc_copysignf, copysignf, -10, 10,
          -10, 10, 0);
    test2("fmod", __ompcc_fmod, fmod, NULL, __ompcc_fmodf, fmodf, -100, 100, -10, 10, 0);
    test2("remainder", __ompcc_remainder, g_remainder, NULL, __ompcc_remainderf, remainderf,
          -100, 100, -10, 10, 0);
    test_misc();
    test1("nearbyint", __ompcc_nearbyint, nearbyint, NULL, __ompcc_nearbyintf, nearbyintf, -10,
          10, NEAR_INT);
    test1("logb", __ompcc_logb, logb, NULL, __ompcc_logbf, logbf, -10, 10, NEAR_ZERO);
    test2("nextafter", __ompcc_nextafter, nextafter, NULL, __ompcc_nextafterf, nextafterf, -10,
          10, -10, 10, 0);
    test1("exp", __ompcc_exp, exp, expl, __ompcc_expf, expf, -745, 710, NEAR_ZERO);
    test1("exp2", __ompcc_exp2, exp2, exp2l, __ompcc_exp2f, exp2f, -1075, 1024, NEAR_ZERO);
    test1("expm1", __ompcc_expm1, expm1, expm1l, __ompcc_expm1f, expm1f, -3, 3, NEAR_ZERO);
    test1("sinh", __ompcc_sinh, sinh, sinhl, __ompcc_sinhf, sinhf, -30, 30, NEAR_ZERO);
    test1("cosh", __ompcc_cosh, cosh, coshl, __ompcc_coshf, coshf, -30, 30, NEAR_ZERO);
    test1("log", __ompcc_log, log, logl, __ompcc_logf, logf, 0, 100, NEAR_ONE);
    test1("log2", __ompcc_log2, log2, log2l, __ompcc_log2f, log2f, 0, 100, NEAR_ONE);
    test1("log10", __ompcc_log10, log10, log10l, __ompcc_log10f, log10f, 0, 100, NEAR_ONE);
    test1("log1p", __ompcc_log1p, log1p, log1pl, __ompcc_log1pf, log1pf, -1, 10, NEAR_ZERO);
    test1("asinh", __ompcc_asinh, asinh, asinhl, __ompcc_asinhf, asinhf, -30, 30, NEAR_ZERO);
    test1("acosh", __ompcc_acosh, acosh, acoshl, __ompcc_acoshf, acoshf, 1, 30, NEAR_ONE);
    test1("atanh", __ompcc_atanh, atanh, atanhl, __ompcc_atanhf, atanhf, -1, 1, NEAR_ZERO);
    test1("cbrt", __ompcc_cbrt, cbrt, cbrtl, __ompcc_cbrtf, cbrtf, -100, 100, NEAR_ZERO);
    test2("pow", __ompcc_pow, pow, powl, __ompcc_powf, powf, 0, 10, -50, 50, 1);
    test2("hypot", __ompcc_hypot, hypot, hypotl, __ompcc_hypotf, hypotf, -10, 10, -10, 10, 0);
    test1("sin", __ompcc_sin, sin, sinl, __ompcc_sinf, sinf, -10, 10, NEAR_PIO2);
    test1("cos", __ompcc_cos, cos, cosl, __ompcc_cosf, cosf, -10, 10, NEAR_PIO2);
    test1("tan", __ompcc_tan, tan, tanl, __ompcc_tanf, tanf, -10, 10, NEAR_PIO2);
    test1("asin", __ompcc_asin, asin, asinl, __ompcc_asinf, asinf, -1, 1, NEAR_ZERO);
    test1("acos", __ompcc_acos, acos, acosl, __ompcc_acosf, acosf, -1, 1, NEAR_ONE);
    test1("atan", __ompcc_atan, atan, atanl, __ompcc_atanf, atanf, -10, 10, NEAR_ZERO);
    test2("atan2", __ompcc_atan2, atan2, atan2l, __ompcc_atan2f, atan2f, -10, 10, -10, 10, 0);
    test1("erf", __ompcc_erf, erf, erfl, __ompcc_erff, erff, -6, 6, NEAR_ZERO);
    test1("erfc", __ompcc_erfc, erfc, erfcl, __ompcc_erfcf, erfcf, -6, 28, NEAR_ZERO);
    test1("tgamma", __ompcc_tgamma, tgamma, tgammal, __ompcc_tgammaf, tgammaf, -30, 30,
          NEAR_INT);
    test1("tanh", __ompcc_tanh, tanh, tanhl, __ompcc_tanhf, tanhf, -3, 3, NEAR_ZERO);
    (void)PI;
    return 0;
}
