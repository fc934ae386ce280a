/* Internal helpers shared by the ompcc device math sources: bit casts, double-double
 * arithmetic and exact power-of-two scaling. Everything here is static inline or a
 * prototype of an internal (non-public) routine prefixed __ompcc_i_.
 *
 * Invariants: no global mutable state, no libm calls, no long double; only + - * /,
 * comparisons, integer bit manipulation and the builtins that map to exact PTX instructions
 * (fma, sqrt, fabs, floor, ceil, trunc, rint, fmin, fmax, copysign). */
#ifndef OMPCC_MATH_INTERNAL_H
#define OMPCC_MATH_INTERNAL_H

#include "consts.h"

/* Fixed-width integers without <stdint.h>, so the sources need no system header
 * (ILP32 is not a target: long long is 64 bits and int 32 bits on host and device). */
typedef unsigned long long ompcc_u64;
typedef unsigned int ompcc_u32;
typedef char ompcc_u64_is_64_bits[sizeof(ompcc_u64) == 8 ? 1 : -1];
typedef char ompcc_u32_is_32_bits[sizeof(ompcc_u32) == 4 ? 1 : -1];

typedef union {
    double f;
    ompcc_u64 u;
} ompcc_d64;

typedef union {
    float f;
    ompcc_u32 u;
} ompcc_f32;

static inline ompcc_u64 ompcc_bits(double x) {
    ompcc_d64 v;
    v.f = x;
    return v.u;
}

static inline double ompcc_from_bits(ompcc_u64 u) {
    ompcc_d64 v;
    v.u = u;
    return v.f;
}

static inline ompcc_u32 ompcc_bitsf(float x) {
    ompcc_f32 v;
    v.f = x;
    return v.u;
}

static inline float ompcc_from_bitsf(ompcc_u32 u) {
    ompcc_f32 v;
    v.u = u;
    return v.f;
}

static inline int ompcc_isnan(double x) { return x != x; }

#define OMPCC_INF ompcc_from_bits(0x7ff0000000000000ULL)
#define OMPCC_NAN ompcc_from_bits(0x7ff8000000000000ULL)

/* 2^e for -1074 <= e <= 1023, exactly. */
static inline double ompcc_pow2(int e) {
    if (e >= -1022) {
        return ompcc_from_bits((ompcc_u64)(e + 1023) << 52);
    }
    return ompcc_from_bits(1ULL << (e + 1074));
}

/* y * 2^k with a single rounding, for finite y with |y| in [2^-4, 2^4] and
 * -1200 <= k <= 2100: overflow gives inf, underflow rounds once into the subnormals. */
static inline double ompcc_scale(double y, int k) {
    if (k > 1023) {
        if (k > 2040) {
            k = 2040;
        }
        return (y * ompcc_pow2(1023)) * ompcc_pow2(k - 1023);
    }
    if (k < -1000) {
        if (k < -1140) {
            k = -1140;
        }
        return (y * ompcc_pow2(k + 120)) * ompcc_pow2(-120);
    }
    return y * ompcc_pow2(k);
}

/* Double-double helpers: a value is hi + lo with |lo| <= ulp(hi)/2. */

/* a + b exactly as s + *e (any magnitudes). */
static inline double ompcc_two_sum(double a, double b, double *e) {
    double s = a + b;
    double bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* a + b exactly as s + *e, requires |a| >= |b| or a == 0. */
static inline double ompcc_fast_two_sum(double a, double b, double *e) {
    double s = a + b;
    *e = b - (s - a);
    return s;
}

/* a * b exactly as p + *e (barring over/underflow). */
static inline double ompcc_two_prod(double a, double b, double *e) {
    double p = a * b;
    *e = __builtin_fma(a, b, -p);
    return p;
}

/* (ah + al) + (bh + bl). */
static inline double ompcc_dd_add(double ah, double al, double bh, double bl, double *lo) {
    double e;
    double s = ompcc_two_sum(ah, bh, &e);
    e += al + bl;
    return ompcc_fast_two_sum(s, e, lo);
}

/* (ah + al) * (bh + bl). */
static inline double ompcc_dd_mul(double ah, double al, double bh, double bl, double *lo) {
    double e;
    double p = ompcc_two_prod(ah, bh, &e);
    e += ah * bl + al * bh;
    return ompcc_fast_two_sum(p, e, lo);
}

/* (ah + al) / (bh + bl). */
static inline double ompcc_dd_div(double ah, double al, double bh, double bl, double *lo) {
    double q = ah / bh;
    double r = __builtin_fma(-q, bh, ah) + al - q * bl;
    double c = r / bh;
    return ompcc_fast_two_sum(q, c, lo);
}

/* sqrt(ah + al) for ah > 0. */
static inline double ompcc_dd_sqrt(double ah, double al, double *lo) {
    double s = __builtin_sqrt(ah);
    double r = __builtin_fma(-s, s, ah) + al;
    double c = r / (2.0 * s);
    return ompcc_fast_two_sum(s, c, lo);
}

/* exp(xh + xl) = 2^k * (hi + *lo), for |xh| <= 750; *lo is small against hi, hi in
 * [0.7, 1.5]. Relative error about 2^-60. */
double __ompcc_i_exp_core(double xh, double xl, int *k, double *lo);

/* log(x) = hi + *lo for finite x > 0 (subnormals included); relative error about 2^-66. */
double __ompcc_i_log_core(double x, double *lo);

/* log(1 + (gh + gl)) = hi + *lo for gh + gl > -1, gh finite and |gl| <= ulp(gh). */
double __ompcc_i_log1p_dd(double gh, double gl, double *lo);

/* sin(pi r) = hi + *lo for |r| <= 1/2 (trig.c). */
double __ompcc_i_sinpi(double r, double *lo);

#endif
