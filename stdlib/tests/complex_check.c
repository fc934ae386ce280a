/* Host check of the device library's <complex.h> functions (complex/complex.c, the exact
 * text the device compiles) against glibc, and of __ompcc___mul[sd]c3 / __ompcc___div[sd]c3
 * against libgcc's __mul[sd]c3 / __div[sd]c3 (what gcc's `*` and `/` call).
 *
 * Prints one line per function: name, cases, worst normwise error in ulps of the larger
 * part of glibc's result (ULP <bound>), and for the arithmetic routines the number of
 * results that differ in any bit (BITS <count>). */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double _Complex __ompcc___muldc3(double, double, double, double);
float _Complex __ompcc___mulsc3(float, float, float, float);
double _Complex __ompcc___divdc3(double, double, double, double);
float _Complex __ompcc___divsc3(float, float, float, float);
double _Complex __muldc3(double, double, double, double);
float _Complex __mulsc3(float, float, float, float);
double _Complex __divdc3(double, double, double, double);
float _Complex __divsc3(float, float, float, float);

#define D1(n) double _Complex __ompcc_##n(double _Complex);
#define F1(n) float _Complex __ompcc_##n##f(float _Complex);
#define ALL(X) X(cproj) X(cexp) X(clog) X(csqrt) X(csin) X(ccos) X(ctan) X(csinh) X(ccosh) X(ctanh)
ALL(D1)
ALL(F1)
double __ompcc_cabs(double _Complex);
double __ompcc_carg(double _Complex);
float __ompcc_cabsf(float _Complex);
float __ompcc_cargf(float _Complex);
double _Complex __ompcc_cpow(double _Complex, double _Complex);
float _Complex __ompcc_cpowf(float _Complex, float _Complex);

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}
/* A value spread over magnitudes 2^-8 .. 2^8 with either sign, or a special value. */
static double pick(int range) {
    uint64_t r = next();
    double u = (double)(r >> 11) * 0x1p-53;
    double v = ldexp(1.0 + u, (int)(next() % (2 * range + 1)) - range);
    return (r & 1) ? -v : v;
}
static double special(void) {
    static const double s[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e308, -1e-310};
    return s[next() % 9];
}

static double ulp(double x) {
    x = fabs(x);
    if (!(x > 0x1p-1022)) return 0x1p-1074;
    int e;
    frexp(x, &e);
    return ldexp(1.0, e - 53);
}
static double ulpf(double x) {
    x = fabs(x);
    if (!(x > 0x1p-126)) return 0x1p-149;
    int e;
    frexp(x, &e);
    return ldexp(1.0, e - 24);
}

/* Normwise error of got against ref in ulps of the larger part; NaN/inf patterns must agree
 * (a mismatch counts as 1e9). */
static double err(double _Complex got, double _Complex ref, int single) {
    double g[2] = {creal(got), cimag(got)}, r[2] = {creal(ref), cimag(ref)};
    double m = fmax(fabs(r[0]), fabs(r[1]));
    if (!isfinite(r[0]) || !isfinite(r[1])) {
        for (int i = 0; i < 2; i++) {
            if (isnan(r[i]) != isnan(g[i])) return 1e9;
            if (isinf(r[i]) && g[i] != r[i]) return 1e9;
        }
        return 0;
    }
    double u = single ? ulpf(m) : ulp(m), worst = 0;
    for (int i = 0; i < 2; i++) {
        if (isnan(g[i])) return 1e9;
        double d = fabs(g[i] - r[i]) / u;
        if (d > worst) worst = d;
    }
    return worst;
}

static int same_bits(double _Complex a, double _Complex b) {
    double x[2] = {creal(a), cimag(a)}, y[2] = {creal(b), cimag(b)};
    for (int i = 0; i < 2; i++) {
        if (isnan(x[i]) && isnan(y[i])) continue;
        if (memcmp(&x[i], &y[i], sizeof x[i]) != 0) return 0;
    }
    return 1;
}

#define N 4000

int main(void) {
    /* complex * and / : bit-identical to libgcc, special values included */
    const char *names[4] = {"muldc3", "mulsc3", "divdc3", "divsc3"};
    for (int k = 0; k < 4; k++) {
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double v[4];
            for (int j = 0; j < 4; j++) v[j] = (next() % 4 == 0) ? special() : pick(600);
            double _Complex a, b;
            switch (k) {
            case 0: a = __ompcc___muldc3(v[0], v[1], v[2], v[3]); b = __muldc3(v[0], v[1], v[2], v[3]); break;
            case 1: a = __ompcc___mulsc3(v[0], v[1], v[2], v[3]); b = __mulsc3(v[0], v[1], v[2], v[3]); break;
            case 2: a = __ompcc___divdc3(v[0], v[1], v[2], v[3]); b = __divdc3(v[0], v[1], v[2], v[3]); break;
            default: a = __ompcc___divsc3(v[0], v[1], v[2], v[3]); b = __divsc3(v[0], v[1], v[2], v[3]); break;
            }
            bad += !same_bits(a, b);
        }
        printf("%s %d BITS %d\n", names[k], N, bad);
    }

#define CHECK(name, mine, ref, single)                                                      \
    do {                                                                                    \
        double worst = 0;                                                                   \
        for (int i = 0; i < N; i++) {                                                       \
            double _Complex z = CMPLX(pick(4), pick(4));                                    \
            if (i % 50 == 0) z = CMPLX(special(), pick(4));                                 \
            if (i % 50 == 1) z = CMPLX(pick(4), special());                                 \
            if (single) z = CMPLX((float)creal(z), (float)cimag(z));                        \
            double e = err(mine, ref, single);                                              \
            if (e >= 1e9 && getenv("SHOW"))                                                  \
                printf("  %s(%a, %a) = (%a, %a) want (%a, %a)\n", name, creal(z), cimag(z),    \
                       creal(mine), cimag(mine), creal(ref), cimag(ref));                  \
            if (e > worst) worst = e;                                                       \
        }                                                                                   \
        printf("%s %d ULP %.3g\n", name, N, worst);                                         \
    } while (0)
#define FZ CMPLXF((float)creal(z), (float)cimag(z))
    CHECK("cabs", __ompcc_cabs(z), cabs(z), 0);
    CHECK("carg", __ompcc_carg(z), carg(z), 0);
    CHECK("cabsf", __ompcc_cabsf(FZ), cabsf(FZ), 1);
    CHECK("cargf", __ompcc_cargf(FZ), cargf(FZ), 1);
#define RUN(n)                                                                              \
    CHECK(#n, __ompcc_##n(z), n(z), 0);                                                     \
    CHECK(#n "f", __ompcc_##n##f(FZ), n##f(FZ), 1);
    ALL(RUN)
    CHECK("cpow", __ompcc_cpow(z, CMPLX(1.5, -0.5)), cpow(z, CMPLX(1.5, -0.5)), 0);
    CHECK("cpowf", __ompcc_cpowf(FZ, CMPLXF(1.5f, -0.5f)), cpowf(FZ, CMPLXF(1.5f, -0.5f)), 1);
    return 0;
}
