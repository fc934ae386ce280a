/* Compares the device library's snprintf/sprintf/vsnprintf (stdio.c, built for the host)
 * with glibc's: every return value and every byte of the buffer (sentinels past the
 * terminator included) must be equal. Integers: every flag combination with widths,
 * precisions and length modifiers on edge values; doubles: special values, decimal ties and
 * 100,000+ random bit patterns over the whole range (subnormals, inf, nan, -0) in the e, f, g
 * and a styles; truncation with small n; %n. Prints "N checks, M mismatches". */
#include "ompcc_stdio.h"
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define B 1400

static long checks, mismatches;

static void report(const char *fmt, const char *want, int rw, const char *got, int rg) {
    mismatches++;
    if (mismatches <= 30) {
        printf("format \"%s\": glibc %d [%s], ompcc %d [%s]\n", fmt, rw, want, rg, got);
    }
}

/* Both implementations on the same arguments, through vsnprintf with bound n. */
static void check_n(unsigned long n, const char *fmt, ...) {
    char want[B], got[B];
    memset(want, 0x55, B);
    memset(got, 0x55, B);
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int rw = vsnprintf(want, n, fmt, ap);
    int rg = __ompcc_vsnprintf(got, n, fmt, aq);
    va_end(aq);
    va_end(ap);
    checks++;
    if (rw != rg || memcmp(want, got, B) != 0) {
        want[B - 1] = got[B - 1] = 0;
        report(fmt, want, rw, got, rg);
    }
}

#define CHECK(...) check_n(B, __VA_ARGS__)

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double from_bits(uint64_t u) {
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static const char *flag_sets[32];
static char flag_buf[32][8];

static void make_flags(void) {
    const char *f = "-+ #0";
    for (int m = 0; m < 32; m++) {
        int k = 0;
        for (int i = 0; i < 5; i++) {
            if (m & (1 << i)) {
                flag_buf[m][k++] = f[i];
            }
        }
        flag_buf[m][k] = 0;
        flag_sets[m] = flag_buf[m];
    }
}

static void ints(void) {
    static const char *widths[] = {"", "1", "6", "23"};
    static const char *precs[] = {"", ".", ".0", ".1", ".4", ".21"};
    static const long svals[] = {0, 1, -1, 7, -42, 255, 65535, INT_MAX, INT_MIN, 100000, -99999};
    static const long lvals[] = {LONG_MAX, LONG_MIN, 1234567890123L, -9876543210L, 0, 8};
    char fmt[64];
    for (int m = 0; m < 32; m++) {
        for (unsigned w = 0; w < sizeof widths / sizeof *widths; w++) {
            for (unsigned p = 0; p < sizeof precs / sizeof *precs; p++) {
                static const char *convs = "diuoxX";
                for (const char *c = convs; *c; c++) {
                    for (unsigned v = 0; v < sizeof svals / sizeof *svals; v++) {
                        snprintf(fmt, sizeof fmt, "<%%%s%s%s%c>", flag_sets[m], widths[w],
                                 precs[p], *c);
                        CHECK(fmt, (int)svals[v]);
                        snprintf(fmt, sizeof fmt, "<%%%s%s%shh%c>", flag_sets[m], widths[w],
                                 precs[p], *c);
                        CHECK(fmt, (int)svals[v]);
                        snprintf(fmt, sizeof fmt, "<%%%s%s%sh%c>", flag_sets[m], widths[w],
                                 precs[p], *c);
                        CHECK(fmt, (int)svals[v]);
                    }
                    static const char *lmods[] = {"l", "ll", "z", "j", "t"};
                    for (unsigned l = 0; l < 5; l++) {
                        for (unsigned v = 0; v < sizeof lvals / sizeof *lvals; v++) {
                            snprintf(fmt, sizeof fmt, "<%%%s%s%s%s%c>", flag_sets[m],
                                     widths[w], precs[p], lmods[l], *c);
                            CHECK(fmt, lvals[v]);
                        }
                    }
                }
                /* %c %s %p take flags - and width (glibc ignores the others) */
                snprintf(fmt, sizeof fmt, "<%%%s%sc>", flag_sets[m], widths[w]);
                CHECK(fmt, 'q');
                snprintf(fmt, sizeof fmt, "<%%%s%s%ss>", flag_sets[m], widths[w], precs[p]);
                CHECK(fmt, "hello, world");
                CHECK(fmt, "");
                CHECK(fmt, (char *)0);
                snprintf(fmt, sizeof fmt, "<%%%s%s%sp>", flag_sets[m], widths[w], precs[p]);
                CHECK(fmt, (void *)0);
                CHECK(fmt, (void *)0x7fff1234abcdUL);
            }
        }
    }
    /* `*` width and precision, negative ones included */
    for (int w = -12; w <= 12; w += 3) {
        for (int p = -3; p <= 12; p += 3) {
            CHECK("[%*.*d|%-*.*x|%*.*s|%*.*f|%*.*e]", w, p, 12345, w, p, 0xbeefu, w, p, "abcdefgh",
                  w, p, 3.14159, w, p, -2.5e-7);
        }
    }
    CHECK("100%% %c%c%c %s", 'a', 'b', 'c', "end");
}

static const char *float_formats[] = {
    "%e",    "%f",     "%g",     "%a",      "%.0e",  "%.0f",    "%.0g",     "%.1e",
    "%.3f",  "%.17g",  "%.16e",  "%.13a",   "%.2a",  "%.0a",    "%#.0e",    "%#.0f",
    "%#g",   "%#.3g",  "%+.5E",  "% .4G",   "%A",    "%-+14.3e|", "%015.4f", "%012.6a",
    "%.30f", "%.40e",  "%.25g",  "%#.12a",  "%F",    "%10.1f",  "%-9.2g|",  "%+09.2e",
};

static void one_double(double x) {
    for (unsigned i = 0; i < sizeof float_formats / sizeof *float_formats; i++) {
        CHECK(float_formats[i], x);
    }
}

static void floats(void) {
    static const double specials[] = {
        0.0, 1.0, 0.5, 1.5, 2.5, 0.125, 0.375, 1e-5, 1e-4, 123456.5, 999999.5, 9.5, 99.95,
        0.05, 0.15, 0.25, 0.35, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 5e-324, 1e-323,
        2.2250738585072009e-308, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 0.2,
        0.3, 1.0 / 3.0, 2.0 / 3.0, 9007199254740993.0, 4503599627370496.5, 1e100, 1e-100,
        3.14159265358979, 2.718281828459045, 1.99999, 0.96875, 255.5, 65536.0, 1e-7,
        999.5, 99.5, 9999.995, 0.9995, 99999.95, 9999995.0, 9.9999999e-5,
    };
    for (unsigned i = 0; i < sizeof specials / sizeof *specials; i++) {
        one_double(specials[i]);
        one_double(-specials[i]);
    }
    one_double(INFINITY);
    one_double(-INFINITY);
    one_double(NAN);
    one_double(-NAN);
    /* ties at every precision: k + 0.5 scaled by powers of two */
    for (int k = 0; k < 200; k++) {
        one_double((k + 0.5) / 1024.0);
        one_double(k * 0.5);
    }
    /* random bit patterns over the whole range, random subnormals, random moderate values */
    for (int i = 0; i < 100000; i++) {
        uint64_t u = next();
        double x = from_bits(u);
        CHECK("%.17e", x);
        CHECK("%g", x);
        CHECK("%a", x);
        CHECK(i % 2 ? "%.3f" : "%.12g", x);
    }
    for (int i = 0; i < 20000; i++) {
        double x = from_bits(next() & 0x800fffffffffffffu);
        CHECK("%.20e", x);
        CHECK("%.5a", x);
    }
    for (int i = 0; i < 20000; i++) {
        /* exponents near zero: many digits both sides of the point */
        uint64_t u = (next() & 0x800fffffffffffffu) | ((uint64_t)(1023 - 40 + next() % 90) << 52);
        one_double(from_bits(u));
    }
}

static void truncation(void) {
    for (unsigned long n = 0; n < 20; n++) {
        check_n(n, "%d-%s-%.3f-%x", -12345, "abcdef", 2.71828, 0xabcdu);
        check_n(n, "%10s|%-6d|", "xy", 42);
        check_n(n, "");
        check_n(n, "plain text");
    }
}

static void others(void) {
    /* %n with each length */
    char a[64], b[64];
    int na = 0, nb = 0;
    long la = 0, lb = 0;
    signed char ca = 0, cb = 0;
    short sa = 0, sb = 0;
    int ra = snprintf(a, sizeof a, "abc%nde%ldf%hhng%hnh%ln", &na, 99L, &ca, &sa, &la);
    int rb = __ompcc_snprintf(b, sizeof b, "abc%nde%ldf%hhng%hnh%ln", &nb, 99L, &cb, &sb, &lb);
    checks++;
    if (ra != rb || strcmp(a, b) != 0 || na != nb || la != lb || ca != cb || sa != sb) {
        report("%n", a, ra, b, rb);
    }
    /* sprintf and vsprintf (through snprintf's checker: same text) */
    ra = sprintf(a, "%s=%05.1f;%+d", "pi", 3.14159, 7);
    rb = __ompcc_sprintf(b, "%s=%05.1f;%+d", "pi", 3.14159, 7);
    checks++;
    if (ra != rb || strcmp(a, b) != 0) {
        report("sprintf", a, ra, b, rb);
    }
    /* L is not supported: -1 */
    checks++;
    if (__ompcc_snprintf(b, sizeof b, "%Lf", (long double)1.0) != -1) {
        report("%Lf", "-1", -1, b, 0);
    }
}

int main(void) {
    make_flags();
    ints();
    floats();
    truncation();
    others();
    printf("%ld checks, %ld mismatches\n", checks, mismatches);
    return mismatches != 0;
}
