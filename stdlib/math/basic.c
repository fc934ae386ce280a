/* Exact functions of the ompcc device math library: absolute value, rounding, min/max,
 * fdim, fma, copysign, ldexp, frexp, modf, fmod, remainder and sqrt. Each result is the
 * exactly rounded (here: exact) IEEE result, bit for bit what glibc returns, NaN payloads
 * aside. The float versions widen to double where that is exact. */
#include "ompcc_math.h"
#include "internal.h"

double __ompcc_fabs(double x) { return __builtin_fabs(x); }
float __ompcc_fabsf(float x) { return __builtin_fabsf(x); }
double __ompcc_sqrt(double x) { return __builtin_sqrt(x); }
float __ompcc_sqrtf(float x) { return __builtin_sqrtf(x); }
double __ompcc_floor(double x) { return __builtin_floor(x); }
float __ompcc_floorf(float x) { return __builtin_floorf(x); }
double __ompcc_ceil(double x) { return __builtin_ceil(x); }
float __ompcc_ceilf(float x) { return __builtin_ceilf(x); }
double __ompcc_trunc(double x) { return __builtin_trunc(x); }
float __ompcc_truncf(float x) { return __builtin_truncf(x); }
double __ompcc_rint(double x) { return __builtin_rint(x); }
float __ompcc_rintf(float x) { return __builtin_rintf(x); }
double __ompcc_fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
float __ompcc_fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
double __ompcc_copysign(double x, double y) { return __builtin_copysign(x, y); }
float __ompcc_copysignf(float x, float y) { return __builtin_copysignf(x, y); }

int __ompcc_abs(int x) { return x < 0 ? (int)(0u - (unsigned)x) : x; }
long __ompcc_labs(long x) { return x < 0 ? (long)(0ul - (unsigned long)x) : x; }
long long __ompcc_llabs(long long x) {
    return x < 0 ? (long long)(0ull - (unsigned long long)x) : x;
}

/* Round half away from zero: trunc, then step outwards when the dropped part is >= 1/2
 * (x - trunc(x) is exact). */
double __ompcc_round(double x) {
    double t = __builtin_trunc(x);
    if (__builtin_fabs(x - t) >= 0.5) {
        t += __builtin_copysign(1.0, x);
    }
    return t;
}

float __ompcc_roundf(float x) {
    float t = __builtin_truncf(x);
    if (__builtin_fabsf(x - t) >= 0.5f) {
        t += __builtin_copysignf(1.0f, x);
    }
    return t;
}

/* fmin/fmax: a quiet NaN operand loses to a number, a signaling NaN gives NaN (as glibc
 * and IEEE 754-2008 minNum/maxNum); equal operands (+0 and -0) give the second one, as
 * glibc's library function does (C11 leaves the sign of that zero open). */
static inline int ompcc_is_snan(double x) {
    ompcc_u64 u = ompcc_bits(x) & 0x7fffffffffffffffULL;
    return u > 0x7ff0000000000000ULL && !(u & 0x0008000000000000ULL);
}

static inline int ompcc_is_snanf(float x) {
    ompcc_u32 u = ompcc_bitsf(x) & 0x7fffffffu;
    return u > 0x7f800000u && !(u & 0x00400000u);
}

double __ompcc_fmin(double x, double y) {
    if (ompcc_is_snan(x) || ompcc_is_snan(y)) {
        return x + y;
    }
    if (ompcc_isnan(x)) {
        return y;
    }
    if (ompcc_isnan(y)) {
        return x;
    }
    return x < y ? x : y;
}

double __ompcc_fmax(double x, double y) {
    if (ompcc_is_snan(x) || ompcc_is_snan(y)) {
        return x + y;
    }
    if (ompcc_isnan(x)) {
        return y;
    }
    if (ompcc_isnan(y)) {
        return x;
    }
    return x > y ? x : y;
}

float __ompcc_fminf(float x, float y) {
    if (ompcc_is_snanf(x) || ompcc_is_snanf(y)) {
        return x + y;
    }
    if (x != x) {
        return y;
    }
    if (y != y) {
        return x;
    }
    return x < y ? x : y;
}

float __ompcc_fmaxf(float x, float y) {
    if (ompcc_is_snanf(x) || ompcc_is_snanf(y)) {
        return x + y;
    }
    if (x != x) {
        return y;
    }
    if (y != y) {
        return x;
    }
    return x > y ? x : y;
}

double __ompcc_fdim(double x, double y) {
    if (ompcc_isnan(x) || ompcc_isnan(y)) {
        return x + y;
    }
    return x > y ? x - y : 0.0;
}

float __ompcc_fdimf(float x, float y) {
    if (x != x || y != y) {
        return x + y;
    }
    return x > y ? x - y : 0.0f;
}

/* x * 2^e with one rounding: build the result exponent directly; results that fall into
 * the subnormals are formed as a normal number and rounded by one multiplication. */
double __ompcc_ldexp(double x, int e) {
    if (x == 0.0 || ompcc_isnan(x) || __builtin_fabs(x) == OMPCC_INF) {
        return x;
    }
    if (e > 4000) {
        e = 4000;
    }
    if (e < -4000) {
        e = -4000;
    }
    ompcc_u64 u = ompcc_bits(x);
    int ex = (int)((u >> 52) & 0x7ff);
    if (ex == 0) { /* subnormal: normalize */
        u = ompcc_bits(x * 0x1p64);
        ex = (int)((u >> 52) & 0x7ff) - 64;
    }
    int ne = ex + e; /* biased exponent of the result */
    ompcc_u64 sm = u & 0x800fffffffffffffULL;
    if (ne >= 0x7ff) {
        return __builtin_copysign(OMPCC_INF, x);
    }
    if (ne >= 1) {
        return ompcc_from_bits(sm | ((ompcc_u64)ne << 52));
    }
    if (ne < -60) {
        return __builtin_copysign(0.0, x);
    }
    return ompcc_from_bits(sm | ((ompcc_u64)(ne + 64) << 52)) * 0x1p-64;
}

float __ompcc_ldexpf(float x, int e) {
    if (e > 1000) {
        e = 1000;
    }
    if (e < -1000) {
        e = -1000;
    }
    /* exact in double, then one rounding to float */
    return (float)__ompcc_ldexp((double)x, e);
}

double __ompcc_frexp(double x, int *e) {
    if (x == 0.0 || ompcc_isnan(x) || __builtin_fabs(x) == OMPCC_INF) {
        *e = 0;
        return x;
    }
    ompcc_u64 u = ompcc_bits(x);
    int ex = (int)((u >> 52) & 0x7ff);
    int adj = 0;
    if (ex == 0) {
        u = ompcc_bits(x * 0x1p64);
        ex = (int)((u >> 52) & 0x7ff);
        adj = 64;
    }
    *e = ex - 1022 - adj;
    return ompcc_from_bits((u & 0x800fffffffffffffULL) | (1022ULL << 52));
}

float __ompcc_frexpf(float x, int *e) {
    double m = __ompcc_frexp((double)x, e);
    return (float)m;
}

double __ompcc_modf(double x, double *ip) {
    double t = __builtin_trunc(x);
    *ip = t;
    if (__builtin_fabs(x) == OMPCC_INF) {
        return __builtin_copysign(0.0, x);
    }
    return __builtin_copysign(x - t, x);
}

float __ompcc_modff(float x, float *ip) {
    float t = __builtin_truncf(x);
    *ip = t;
    if (__builtin_fabsf(x) == ompcc_from_bitsf(0x7f800000u)) {
        return __builtin_copysignf(0.0f, x);
    }
    return __builtin_copysignf(x - t, x);
}

/* |x| rem |y| on the integer significands, with the low bit of the quotient.
 * Inputs: finite, y != 0, |x| >= |y|. Returns r and *ey with |x| mod |y| = r * 2^ey. */
static ompcc_u64 ompcc_rem_core(double x, double y, int *ey, int *qodd) {
    ompcc_u64 ux = ompcc_bits(x) & 0x7fffffffffffffffULL;
    ompcc_u64 uy = ompcc_bits(y) & 0x7fffffffffffffffULL;
    int exx = (int)(ux >> 52);
    int exy = (int)(uy >> 52);
    ompcc_u64 mx = ux & 0xfffffffffffffULL;
    ompcc_u64 my = uy & 0xfffffffffffffULL;
    /* significand as integer, exponent of its unit bit */
    if (exx == 0) {
        exx = 1;
    } else {
        mx |= 1ULL << 52;
    }
    if (exy == 0) {
        exy = 1;
    } else {
        my |= 1ULL << 52;
    }
    /* x = mx 2^(exx-1075), y = my 2^(exy-1075), and exx >= exy since |x| >= |y| */
    int d = exx - exy;
    ompcc_u64 q;
    ompcc_u64 r = mx % my;
    q = mx / my;
    /* shift in at most 11 bits at a time so r << s stays below 2^64 (r < my < 2^53) */
    while (d > 0) {
        int s = d > 11 ? 11 : d;
        ompcc_u64 t = r << s;
        q = t / my;
        r = t % my;
        d -= s;
    }
    *ey = exy - 1075;
    *qodd = (int)(q & 1);
    return r;
}

/* r * 2^e exactly, e >= -1074 (the value is representable by construction). */
static double ompcc_make(ompcc_u64 r, int e) { return (double)r * ompcc_pow2(e); }

double __ompcc_fmod(double x, double y) {
    double ax = __builtin_fabs(x);
    double ay = __builtin_fabs(y);
    if (ompcc_isnan(x) || ompcc_isnan(y) || ax == OMPCC_INF || ay == 0.0) {
        return (x * y) / (x * y);
    }
    if (ax < ay) {
        return x;
    }
    int ey, qodd;
    ompcc_u64 r = ompcc_rem_core(ax, ay, &ey, &qodd);
    return __builtin_copysign(ompcc_make(r, ey), x);
}

double __ompcc_remainder(double x, double y) {
    double ax = __builtin_fabs(x);
    double ay = __builtin_fabs(y);
    if (ompcc_isnan(x) || ompcc_isnan(y) || ax == OMPCC_INF || ay == 0.0) {
        return (x * y) / (x * y);
    }
    double res;
    if (ax < ay) {
        /* quotient 0 (even) or 1 when |x| > |y|/2; |x| - |y| is exact (Sterbenz) */
        if (ay == OMPCC_INF) {
            return x;
        }
        if (ax + ax > ay) {
            res = ax - ay;
        } else {
            res = ax;
        }
    } else {
        int ey, qodd;
        ompcc_u64 r = ompcc_rem_core(ax, ay, &ey, &qodd);
        ompcc_u64 my = ompcc_bits(ay) & 0xfffffffffffffULL;
        if ((ompcc_bits(ay) >> 52) != 0) {
            my |= 1ULL << 52;
        }
        if (2 * r > my || (2 * r == my && qodd)) {
            res = -ompcc_make(my - r, ey);
        } else {
            res = ompcc_make(r, ey);
        }
    }
    return ompcc_bits(x) >> 63 ? -res : res;
}

float __ompcc_fmodf(float x, float y) { return (float)__ompcc_fmod(x, y); }
float __ompcc_remainderf(float x, float y) { return (float)__ompcc_remainder(x, y); }
