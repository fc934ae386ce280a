/* Floating-point environment and limits: <float.h> constants, exception flags raised by
 * operations (fetestexcept), rounding modes with rint/nearbyint, and special values. */
#include <stdio.h>
#include <float.h>
#include <fenv.h>
#include <math.h>

/* gcc ignores "#pragma STDC FENV_ACCESS ON" (and warns); volatile operands instead keep the
 * compiler from folding the operations at build time under the default rounding mode */
static volatile double zero = 0.0, one = 1.0, big = 1e308, tiny = 1e-308, three = 3.0;

static void show_flags(const char *what)
{
    printf("%-14s:%s%s%s%s%s\n", what, fetestexcept(FE_DIVBYZERO) ? " DIVBYZERO" : "",
           fetestexcept(FE_INVALID) ? " INVALID" : "", fetestexcept(FE_OVERFLOW) ? " OVERFLOW" : "",
           fetestexcept(FE_UNDERFLOW) ? " UNDERFLOW" : "", fetestexcept(FE_INEXACT) ? " INEXACT" : "");
}

int main(void)
{
    printf("FLT_RADIX=%d FLT_MANT_DIG=%d DBL_MANT_DIG=%d LDBL_MANT_DIG=%d\n", FLT_RADIX, FLT_MANT_DIG,
           DBL_MANT_DIG, LDBL_MANT_DIG);
    printf("FLT_DIG=%d DBL_DIG=%d DBL_MAX_EXP=%d DBL_MIN_EXP=%d DECIMAL_DIG=%d\n", FLT_DIG, DBL_DIG,
           DBL_MAX_EXP, DBL_MIN_EXP, DECIMAL_DIG);
    printf("FLT_EPSILON=%.6g DBL_EPSILON=%.6g DBL_MAX=%.6g DBL_MIN=%.6g FLT_MAX=%.6g\n", FLT_EPSILON,
           DBL_EPSILON, DBL_MAX, DBL_MIN, FLT_MAX);
    printf("1 + eps/2 == 1: %d, 1 + eps == 1: %d\n", one + DBL_EPSILON / 2 == 1.0, one + DBL_EPSILON == 1.0);

    feclearexcept(FE_ALL_EXCEPT);
    show_flags("start");
    volatile double r = one / zero;
    show_flags("1/0");
    feclearexcept(FE_ALL_EXCEPT);
    r = zero / zero;
    show_flags("0/0");
    feclearexcept(FE_ALL_EXCEPT);
    r = big * 10.0;
    show_flags("1e308*10");
    feclearexcept(FE_ALL_EXCEPT);
    r = tiny / 1e10;
    show_flags("1e-308/1e10");
    feclearexcept(FE_ALL_EXCEPT);
    r = one / three;
    show_flags("1/3");
    feclearexcept(FE_ALL_EXCEPT);
    r = sqrt(-one);
    show_flags("sqrt(-1)");
    (void)r;

    static const struct { int mode; const char *name; } modes[] = {
        {FE_TONEAREST, "to nearest"}, {FE_UPWARD, "upward"}, {FE_DOWNWARD, "downward"}, {FE_TOWARDZERO, "toward zero"}};
    /* Results are computed from volatile operands into volatile storage while the mode is set
     * and printed after returning to round-to-nearest, so neither constant folding nor printf
     * sees the other modes. */
    static volatile double num[] = {1.0, -1.0, 2.0, 1e16};
    static volatile double den[] = {3.0, 3.0, 7.0, 3.0};
    volatile double quot[4][4], sums[4];
    for (int m = 0; m < 4; m++) {
        fesetround(modes[m].mode);
        for (int i = 0; i < 4; i++)
            quot[m][i] = num[i] / den[i];
        sums[m] = big + big * 1e-17 * three;
        fesetround(FE_TONEAREST);
    }
    for (int m = 0; m < 4; m++) {
        printf("%-11s:", modes[m].name);
        for (int i = 0; i < 4; i++)
            printf(" %a", quot[m][i]);
        printf(" sum %s\n", sums[m] > big ? "rounded up" : "stayed");
    }
    printf("upward >= nearest >= downward: %d\n", quot[1][0] >= quot[0][0] && quot[0][0] >= quot[2][0]);
    printf("rint in default mode: %.6g %.6g %.6g\n", rint(2.5), rint(-2.5), rint(3.5));
    fenv_t env;
    fegetenv(&env);
    feraiseexcept(FE_OVERFLOW);
    printf("raised overflow: %d\n", fetestexcept(FE_OVERFLOW) != 0);
    fesetenv(&env);
    printf("restored env, overflow: %d\n", fetestexcept(FE_OVERFLOW) != 0);
    double inf = INFINITY, nan = NAN;
    printf("isinf=%d isnan=%d nan==nan=%d signbit(-0.0)=%d fpclassify(DBL_MIN/2)==FP_SUBNORMAL=%d\n",
           isinf(inf), isnan(nan), nan == nan, signbit(-0.0) != 0, fpclassify(DBL_MIN / 2) == FP_SUBNORMAL);
    printf("nextafter(1,2)-1=%.6g frexp(48) exponent=", nextafter(1.0, 2.0) - 1.0);
    int e;
    double mant = frexp(48.0, &e);
    printf("%d mantissa=%.6g ldexp=%.6g\n", e, mant, ldexp(mant, e));
    return 0;
}
