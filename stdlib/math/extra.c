/* Integer rounding and exponent functions of the ompcc device math library: nearbyint,
 * lrint, llrint, lround, llround, scalbn, scalbln, ilogb, logb, nextafter (double and float).
 * All exact. Out-of-range conversions to an integer return the most negative value, as
 * glibc on x86-64 does (C leaves them unspecified); FP_ILOGB0 and FP_ILOGBNAN are INT_MIN
 * as in glibc's x86 headers. */
#include "ompcc_math.h"
#include "internal.h"

#define OMPCC_I64_MIN (-0x7fffffffffffffffLL - 1)
#define OMPCC_I32_MIN (-0x7fffffff - 1)
#define OMPCC_I32_MAX 0x7fffffff

/* an integral double to long long; NaN and values outside [-2^63, 2^63) give the minimum */
static long long ompcc_to_i64(double r) {
    if (r >= -0x1p63 && r < 0x1p63) {
        return (long long)r;
    }
    return OMPCC_I64_MIN;
}

double __ompcc_nearbyint(double x) { return __builtin_rint(x); }
float __ompcc_nearbyintf(float x) { return __builtin_rintf(x); }
long __ompcc_lrint(double x) { return (long)ompcc_to_i64(__builtin_rint(x)); }
long __ompcc_lrintf(float x) { return (long)ompcc_to_i64((double)__builtin_rintf(x)); }
long long __ompcc_llrint(double x) { return ompcc_to_i64(__builtin_rint(x)); }
long long __ompcc_llrintf(float x) { return ompcc_to_i64((double)__builtin_rintf(x)); }
long __ompcc_lround(double x) { return (long)ompcc_to_i64(__ompcc_round(x)); }
long __ompcc_lroundf(float x) { return (long)ompcc_to_i64((double)__ompcc_roundf(x)); }
long long __ompcc_llround(double x) { return ompcc_to_i64(__ompcc_round(x)); }
long long __ompcc_llroundf(float x) { return ompcc_to_i64((double)__ompcc_roundf(x)); }

double __ompcc_scalbn(double x, int n) { return __ompcc_ldexp(x, n); }
float __ompcc_scalbnf(float x, int n) { return __ompcc_ldexpf(x, n); }

double __ompcc_scalbln(double x, long n) {
    int e = n > 100000 ? 100000 : (n < -100000 ? -100000 : (int)n);
    return __ompcc_ldexp(x, e);
}

float __ompcc_scalblnf(float x, long n) {
    int e = n > 100000 ? 100000 : (n < -100000 ? -100000 : (int)n);
    return __ompcc_ldexpf(x, e);
}

int __ompcc_ilogb(double x) {
    if (ompcc_isnan(x) || x == 0.0) {
        return OMPCC_I32_MIN;
    }
    if (__builtin_fabs(x) == OMPCC_INF) {
        return OMPCC_I32_MAX;
    }
    ompcc_u64 u = ompcc_bits(x) & 0x7fffffffffffffffULL;
    if (u < (1ULL << 52)) {
        return (int)((ompcc_bits(x * 0x1p64) >> 52) & 0x7ff) - 1023 - 64;
    }
    return (int)(u >> 52) - 1023;
}

int __ompcc_ilogbf(float x) { return __ompcc_ilogb((double)x); }

double __ompcc_logb(double x) {
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (x == 0.0) {
        return -OMPCC_INF;
    }
    if (__builtin_fabs(x) == OMPCC_INF) {
        return OMPCC_INF;
    }
    return (double)__ompcc_ilogb(x);
}

float __ompcc_logbf(float x) { return (float)__ompcc_logb((double)x); }

double __ompcc_nextafter(double x, double y) {
    if (ompcc_isnan(x) || ompcc_isnan(y)) {
        return x + y;
    }
    if (x == y) {
        return y;
    }
    if (x == 0.0) {
        return __builtin_copysign(ompcc_from_bits(1), y);
    }
    ompcc_u64 u = ompcc_bits(x);
    /* away from zero when moving in the direction of x's sign */
    if ((x < y) == (x > 0.0)) {
        u += 1;
    } else {
        u -= 1;
    }
    return ompcc_from_bits(u);
}

float __ompcc_nextafterf(float x, float y) {
    if (x != x || y != y) {
        return x + y;
    }
    if (x == y) {
        return y;
    }
    if (x == 0.0f) {
        return __builtin_copysignf(ompcc_from_bitsf(1), y);
    }
    ompcc_u32 u = ompcc_bitsf(x);
    if ((x < y) == (x > 0.0f)) {
        u += 1;
    } else {
        u -= 1;
    }
    return ompcc_from_bitsf(u);
}
