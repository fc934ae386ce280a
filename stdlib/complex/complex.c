/* <complex.h> functions of the ompcc device library, and the routines behind complex `*` and
 * `/` (libgcc's __muldc3/__divdc3 algorithms, so results equal gcc's; lowering calls them by
 * their libgcc names, which FUNCTIONS maps to `__ompcc___muldc3` and so on). The library
 * itself uses no complex `*` or `/`.
 *
 * Complex values are built with __real__/__imag__ (C11 6.2.5p13 layout {re, im}); the
 * elementary functions follow C11 Annex G for the usual special values (infinities, NaNs,
 * signed zeros) on top of the library's real functions. The float versions compute in
 * double and round once at the end. Accuracy against glibc: tests/complex.rs. */
#include "ompcc_math.h"
#include "ompcc_complex.h"

/* The <float.h> limits as hex constants (gcc's macros are written as long double literals,
 * which the device does not have), and infinity as an overflowing constant. */
#define DMAX 0x1.fffffffffffffp1023
#define DMIN 0x1p-1022
#define DEPS 0x1p-52
#define INF (DMAX * 2.0)
#define INFF (0x1.fffffep127f * 2.0f)

typedef double _Complex dcomplex;
typedef float _Complex fcomplex;


static dcomplex make(double re, double im) {
    dcomplex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

static fcomplex makef(float re, float im) {
    fcomplex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

static int isnan_(double x) { return x != x; }
static int isinf_(double x) { return __builtin_fabs(x) == INF; }
static int isfinite_(double x) { return __builtin_fabs(x) <= DMAX; }
static double boxed(double x) { return __builtin_copysign(isinf_(x) ? 1.0 : 0.0, x); }
static double nan0(double x) { return isnan_(x) ? __builtin_copysign(0.0, x) : x; }

/* libgcc's __muldc3: the textbook product, with the infinities that came out as
 * NaN + NaN i recovered (C11 G.5.1). */
double _Complex __ompcc___muldc3(double a, double b, double c, double d) {
    double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    double x = ac - bd, y = ad + bc;
    if (isnan_(x) && isnan_(y)) {
        int recalc = 0;
        if (isinf_(a) || isinf_(b)) {
            a = boxed(a);
            b = boxed(b);
            c = nan0(c);
            d = nan0(d);
            recalc = 1;
        }
        if (isinf_(c) || isinf_(d)) {
            c = boxed(c);
            d = boxed(d);
            a = nan0(a);
            b = nan0(b);
            recalc = 1;
        }
        if (!recalc && (isinf_(ac) || isinf_(bd) || isinf_(ad) || isinf_(bc))) {
            a = nan0(a);
            b = nan0(b);
            c = nan0(c);
            d = nan0(d);
            recalc = 1;
        }
        if (recalc) {
            x = INF * (a * c - b * d);
            y = INF * (a * d + b * c);
        }
    }
    return make(x, y);
}

/* __mulsc3: the same in float. */
float _Complex __ompcc___mulsc3(float a, float b, float c, float d) {
    float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    float x = ac - bd, y = ad + bc;
    if (isnan_(x) && isnan_(y)) {
        int recalc = 0;
        if (isinf_(a) || isinf_(b)) {
            a = (float)boxed(a);
            b = (float)boxed(b);
            c = (float)nan0(c);
            d = (float)nan0(d);
            recalc = 1;
        }
        if (isinf_(c) || isinf_(d)) {
            c = (float)boxed(c);
            d = (float)boxed(d);
            a = (float)nan0(a);
            b = (float)nan0(b);
            recalc = 1;
        }
        if (!recalc && (isinf_(ac) || isinf_(bd) || isinf_(ad) || isinf_(bc))) {
            a = (float)nan0(a);
            b = (float)nan0(b);
            c = (float)nan0(c);
            d = (float)nan0(d);
            recalc = 1;
        }
        if (recalc) {
            x = INFF * (a * c - b * d);
            y = INFF * (a * d + b * c);
        }
    }
    return makef(x, y);
}

/* Recovers the infinities and zeros of a quotient that came out as NaN + NaN i (the cases
 * nonzero/zero, infinite/finite, finite/infinite). */
static dcomplex div_recover(double a, double b, double c, double d, double x, double y) {
    if (isnan_(x) && isnan_(y)) {
        if (c == 0.0 && d == 0.0 && (!isnan_(a) || !isnan_(b))) {
            x = __builtin_copysign(INF, c) * a;
            y = __builtin_copysign(INF, c) * b;
        } else if ((isinf_(a) || isinf_(b)) && isfinite_(c) && isfinite_(d)) {
            a = boxed(a);
            b = boxed(b);
            x = INF * (a * c + b * d);
            y = INF * (b * c - a * d);
        } else if ((isinf_(c) || isinf_(d)) && isfinite_(a) && isfinite_(b)) {
            c = boxed(c);
            d = boxed(d);
            x = 0.0 * (a * c + b * d);
            y = 0.0 * (b * c - a * d);
        }
    }
    return make(x, y);
}

/* libgcc's __divdc3 (GCC 12): Smith's method with scaling against overflow and underflow. */
double _Complex __ompcc___divdc3(double a, double b, double c, double d) {
    const double RBIG = DMAX / 2, RMIN = DMIN, RMIN2 = DEPS;
    const double RMINSCAL = 1 / DEPS, RMAX2 = RBIG * RMIN2;
    double denom, ratio, x, y;
    if (__builtin_fabs(c) < __builtin_fabs(d)) {
        if (__builtin_fabs(d) >= RBIG) {
            a = a / 2;
            b = b / 2;
            c = c / 2;
            d = d / 2;
        }
        if (__builtin_fabs(d) < RMIN2) {
            a = a * RMINSCAL;
            b = b * RMINSCAL;
            c = c * RMINSCAL;
            d = d * RMINSCAL;
        } else if ((__builtin_fabs(a) < RMIN && __builtin_fabs(b) < RMAX2 &&
                    __builtin_fabs(d) < RMAX2) ||
                   (__builtin_fabs(b) < RMIN && __builtin_fabs(a) < RMAX2 &&
                    __builtin_fabs(d) < RMAX2)) {
            a = a * RMINSCAL;
            b = b * RMINSCAL;
            c = c * RMINSCAL;
            d = d * RMINSCAL;
        }
        ratio = c / d;
        denom = (c * ratio) + d;
        if (__builtin_fabs(ratio) > RMIN) {
            x = ((a * ratio) + b) / denom;
            y = ((b * ratio) - a) / denom;
        } else {
            x = ((c * (a / d)) + b) / denom;
            y = ((c * (b / d)) - a) / denom;
        }
    } else {
        if (__builtin_fabs(c) >= RBIG) {
            a = a / 2;
            b = b / 2;
            c = c / 2;
            d = d / 2;
        }
        if (__builtin_fabs(c) < RMIN2) {
            a = a * RMINSCAL;
            b = b * RMINSCAL;
            c = c * RMINSCAL;
            d = d * RMINSCAL;
        } else if ((__builtin_fabs(a) < RMIN && __builtin_fabs(b) < RMAX2 &&
                    __builtin_fabs(c) < RMAX2) ||
                   (__builtin_fabs(b) < RMIN && __builtin_fabs(a) < RMAX2 &&
                    __builtin_fabs(c) < RMAX2)) {
            a = a * RMINSCAL;
            b = b * RMINSCAL;
            c = c * RMINSCAL;
            d = d * RMINSCAL;
        }
        ratio = d / c;
        denom = (d * ratio) + c;
        if (__builtin_fabs(ratio) > RMIN) {
            x = ((b * ratio) + a) / denom;
            y = (b - (a * ratio)) / denom;
        } else {
            x = (a + (d * (b / c))) / denom;
            y = (b - (d * (a / c))) / denom;
        }
    }
    return div_recover(a, b, c, d, x, y);
}

/* __divsc3 where double hardware exists: the plain formula in double, then one rounding. */
float _Complex __ompcc___divsc3(float a, float b, float c, float d) {
    double aa = a, bb = b, cc = c, dd = d;
    double denom = (cc * cc) + (dd * dd);
    double x = ((aa * cc) + (bb * dd)) / denom;
    double y = ((bb * cc) - (aa * dd)) / denom;
    dcomplex r = make(x, y);
    if (isnan_(x) && isnan_(y)) {
        r = div_recover(a, b, c, d, x, y);
    }
    return makef((float)__real__ r, (float)__imag__ r);
}

/* ----- <complex.h> elementary functions (double) ----- */

double __ompcc_cabs(double _Complex z) { return __ompcc_hypot(__real__ z, __imag__ z); }

double __ompcc_carg(double _Complex z) { return __ompcc_atan2(__imag__ z, __real__ z); }

double _Complex __ompcc_cproj(double _Complex z) {
    if (isinf_(__real__ z) || isinf_(__imag__ z)) {
        return make(INF, __builtin_copysign(0.0, __imag__ z));
    }
    return z;
}

double _Complex __ompcc_cexp(double _Complex z) {
    double x = __real__ z, y = __imag__ z;
    if (y == 0.0 && !isnan_(x)) {
        return make(__ompcc_exp(x), y);
    }
    if (isinf_(x) && x < 0) {
        if (!isfinite_(y)) {
            return make(0.0, 0.0);
        }
        return make(0.0 * __ompcc_cos(y), 0.0 * __ompcc_sin(y));
    }
    if (isinf_(x) && !isfinite_(y)) {
        return make(x, y - y);
    }
    double c = __ompcc_cos(y), s = __ompcc_sin(y);
    if (x > 709.0) {
        /* exp(x) overflows before e^x * cos(y) does: scale in two halves. */
        double h = __ompcc_exp(x * 0.5);
        return make((h * c) * h, (h * s) * h);
    }
    double e = __ompcc_exp(x);
    return make(e * c, e * s);
}

double _Complex __ompcc_clog(double _Complex z) {
    double x = __real__ z, y = __imag__ z;
    double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
    double im = __ompcc_atan2(y, x);
    if (isinf_(x) || isinf_(y)) {
        return make(INF, im);
    }
    if (isnan_(x) || isnan_(y)) {
        return make(x + y, x + y);
    }
    if (ax < ay) {
        double t = ax;
        ax = ay;
        ay = t;
    }
    if (ax >= 0.5 && ax <= 2.0 && ay < 1.0) {
        /* |z| near 1: log|z| = log1p(x^2 + y^2 - 1) / 2 with the squares split exactly
         * (fma) and ax - 1 exact (Sterbenz), so the cancellation loses nothing. */
        double xh = ax * ax, xl = __builtin_fma(ax, ax, -xh);
        double yh = ay * ay, yl = __builtin_fma(ay, ay, -yh);
        double t = (xh - 1.0) + yh;
        return make(0.5 * __ompcc_log1p(t + (xl + yl)), im);
    }
    return make(__ompcc_log(__ompcc_hypot(x, y)), im);
}

double _Complex __ompcc_csqrt(double _Complex z) {
    double x = __real__ z, y = __imag__ z;
    if (x == 0.0 && y == 0.0) {
        return make(0.0, y);
    }
    if (isinf_(y)) {
        return make(INF, y);
    }
    if (isnan_(x)) {
        return make(x, x);
    }
    if (isinf_(x)) {
        if (x > 0) {
            return make(x, isnan_(y) ? y : __builtin_copysign(0.0, y));
        }
        return make(__builtin_fabs(y - y), __builtin_copysign(INF, y));
    }
    if (isnan_(y)) {
        return make(y, y);
    }
    /* Scale by an even power of two so the sum and the square root neither overflow nor
     * lose bits to underflow; the root scales back exactly. */
    double k = 1.0;
    double m = __builtin_fmax(__builtin_fabs(x), __builtin_fabs(y));
    if (m > 0x1p1000) {
        x *= 0x1p-600;
        y *= 0x1p-600;
        k = 0x1p300;
    } else if (m < 0x1p-1000) {
        x *= 0x1p600;
        y *= 0x1p600;
        k = 0x1p-300;
    }
    double t = __builtin_sqrt((__builtin_fabs(x) + __ompcc_hypot(x, y)) * 0.5);
    if (x >= 0) {
        return make(t * k, (y / (2.0 * t)) * k);
    }
    return make((__builtin_fabs(y) / (2.0 * t)) * k, __builtin_copysign(t, y) * k);
}

double _Complex __ompcc_cpow(double _Complex z, double _Complex w) {
    /* w * log z through the multiplication routine itself: the library is linked after
     * lowering, so its own complex `*` could not be resolved. */
    dcomplex l = __ompcc_clog(z);
    return __ompcc_cexp(__ompcc___muldc3(__real__ w, __imag__ w, __real__ l, __imag__ l));
}

double _Complex __ompcc_csinh(double _Complex z) {
    double x = __real__ z, y = __imag__ z;
    if (y == 0.0) {
        return make(__ompcc_sinh(x), y);
    }
    if (x == 0.0 && !isfinite_(y)) {
        return make(x, y - y);
    }
    return make(__ompcc_sinh(x) * __ompcc_cos(y), __ompcc_cosh(x) * __ompcc_sin(y));
}

double _Complex __ompcc_ccosh(double _Complex z) {
    double x = __real__ z, y = __imag__ z;
    if (y == 0.0) {
        return make(__ompcc_cosh(x), isnan_(x) ? __builtin_copysign(0.0, y) : x * y);
    }
    if (x == 0.0 && !isfinite_(y)) {
        return make(y - y, 0.0);
    }
    return make(__ompcc_cosh(x) * __ompcc_cos(y), __ompcc_sinh(x) * __ompcc_sin(y));
}

double _Complex __ompcc_ctanh(double _Complex z) {
    double x = __real__ z, y = __imag__ z;
    if (isinf_(x)) {
        double im = isfinite_(y) ? __builtin_copysign(0.0, __ompcc_sin(2.0 * y)) : 0.0;
        return make(__builtin_copysign(1.0, x), im);
    }
    if (y == 0.0) {
        return make(__ompcc_tanh(x), y);
    }
    if (!isfinite_(y)) {
        return make(x == 0.0 ? x : y - y, y - y);
    }
    if (__builtin_fabs(x) > 22.0) {
        /* tanh x is 1 to double precision; the imaginary part decays as e^(-2|x|). */
        double e = __ompcc_exp(-2.0 * __builtin_fabs(x));
        return make(__builtin_copysign(1.0, x), 4.0 * __ompcc_sin(y) * __ompcc_cos(y) * e);
    }
    /* Kahan: t = tan y, b = 1 + t^2, s = sinh x, r = sqrt(1 + s^2). */
    double t = __ompcc_tan(y), b = 1.0 + t * t, s = __ompcc_sinh(x);
    double r = __builtin_sqrt(1.0 + s * s), d = 1.0 + b * s * s;
    return make((b * r * s) / d, t / d);
}

/* The circular functions through the hyperbolic ones: sin z = -i sinh(iz),
 * cos z = cosh(iz), tan z = -i tanh(iz). */
double _Complex __ompcc_csin(double _Complex z) {
    dcomplex r = __ompcc_csinh(make(-__imag__ z, __real__ z));
    return make(__imag__ r, -__real__ r);
}

double _Complex __ompcc_ccos(double _Complex z) {
    return __ompcc_ccosh(make(-__imag__ z, __real__ z));
}

double _Complex __ompcc_ctan(double _Complex z) {
    dcomplex r = __ompcc_ctanh(make(-__imag__ z, __real__ z));
    return make(__imag__ r, -__real__ r);
}

/* ----- float versions: computed in double, rounded once ----- */

static dcomplex widen(fcomplex z) { return make(__real__ z, __imag__ z); }
static fcomplex narrow(dcomplex z) { return makef((float)__real__ z, (float)__imag__ z); }

float __ompcc_cabsf(float _Complex z) { return (float)__ompcc_cabs(widen(z)); }
float __ompcc_cargf(float _Complex z) { return (float)__ompcc_carg(widen(z)); }
float _Complex __ompcc_cprojf(float _Complex z) { return narrow(__ompcc_cproj(widen(z))); }
float _Complex __ompcc_cexpf(float _Complex z) { return narrow(__ompcc_cexp(widen(z))); }
float _Complex __ompcc_clogf(float _Complex z) { return narrow(__ompcc_clog(widen(z))); }
float _Complex __ompcc_csqrtf(float _Complex z) { return narrow(__ompcc_csqrt(widen(z))); }
float _Complex __ompcc_cpowf(float _Complex z, float _Complex w) {
    return narrow(__ompcc_cpow(widen(z), widen(w)));
}
float _Complex __ompcc_csinf(float _Complex z) { return narrow(__ompcc_csin(widen(z))); }
float _Complex __ompcc_ccosf(float _Complex z) { return narrow(__ompcc_ccos(widen(z))); }
float _Complex __ompcc_ctanf(float _Complex z) { return narrow(__ompcc_ctan(widen(z))); }
float _Complex __ompcc_csinhf(float _Complex z) { return narrow(__ompcc_csinh(widen(z))); }
float _Complex __ompcc_ccoshf(float _Complex z) { return narrow(__ompcc_ccosh(widen(z))); }
float _Complex __ompcc_ctanhf(float _Complex z) { return narrow(__ompcc_ctanh(widen(z))); }
