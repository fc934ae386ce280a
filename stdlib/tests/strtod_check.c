/* Compares the device library's strtod, strtof and atof (stdlib/strtod.c compiled for the
 * host) with glibc's, bit for bit, with the end pointer and errno, on generated strings:
 * random digits and exponents, exact halfway points between neighbouring doubles and floats
 * (printed exactly through long double) and their neighbours one digit away, subnormals,
 * the overflow and underflow edges, inputs longer than 800 digits, hexadecimal floats,
 * inf/nan spellings with payloads, and junk. Exits non-zero on a mismatch. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ompcc_errno.h"
#include "ompcc_stdlib.h"

static int fails;
static long checks;
static unsigned long long rng = 88172645463325252ull;
static unsigned long long rnd64(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static unsigned rnd(unsigned n) {
    return (unsigned)(rnd64() % n);
}

static void check(const char *s) {
    char *e1, *e2;
    errno = 0;
    double g = strtod(s, &e2);
    int ge = errno;
    *__ompcc___errno_location() = 0;
    double o = __ompcc_strtod(s, &e1);
    int oe = *__ompcc___errno_location();
    checks++;
    if (memcmp(&g, &o, sizeof g) != 0 || e1 != e2 || ge != oe) {
        if (fails++ < 20)
            printf("mismatch: strtod(\"%.120s\") = %a end %ld errno %d, glibc %a end %ld errno %d\n",
                   s, o, (long)(e1 - s), oe, g, (long)(e2 - s), ge);
    }
    errno = 0;
    float gf = strtof(s, &e2);
    ge = errno;
    *__ompcc___errno_location() = 0;
    float of = __ompcc_strtof(s, &e1);
    oe = *__ompcc___errno_location();
    checks++;
    if (memcmp(&gf, &of, sizeof gf) != 0 || e1 != e2 || ge != oe) {
        if (fails++ < 20)
            printf("mismatch: strtof(\"%.120s\") = %a end %ld errno %d, glibc %a end %ld errno %d\n",
                   s, of, (long)(e1 - s), oe, gf, (long)(e2 - s), ge);
    }
    double a = atof(s), b = __ompcc_atof(s);
    checks++;
    if (memcmp(&a, &b, sizeof a) != 0 && fails++ < 20) printf("mismatch: atof(\"%.120s\")\n", s);
}

/* A random finite double of any magnitude (subnormals included). */
static double random_double(void) {
    double x;
    unsigned long long u;
    do {
        u = rnd64() & 0x7fffffffffffffffull;
        memcpy(&x, &u, sizeof x);
    } while (!isfinite(x));
    return x;
}

/* The exact halfway point between x and the next double up, and a string just above it. */
static void halfway_double(double x) {
    static char s[1200];
    long double mid = ((long double)x + (long double)nextafter(x, INFINITY)) / 2;
    int n = snprintf(s, sizeof s - 2, "%.800Le", mid);
    /* Trim trailing zeros of the mantissa: the exact decimal, as short as it goes. */
    char *e = strchr(s, 'e');
    char *z = e;
    while (z[-1] == '0') z--;
    memmove(z, e, strlen(e) + 1);
    check(s);
    /* A little above: a 1 after the last digit. */
    e = strchr(s, 'e');
    char tail[16];
    strcpy(tail, e);
    strcpy(e, "1");
    strcat(s, tail);
    check(s);
    (void)n;
}

static void halfway_float(float x) {
    static char s[400];
    double mid = ((double)x + (double)nextafterf(x, INFINITY)) / 2;
    snprintf(s, sizeof s, "%.200e", mid);
    char *e = strchr(s, 'e');
    char *z = e;
    while (z[-1] == '0') z--;
    memmove(z, e, strlen(e) + 1);
    check(s);
    e = strchr(s, 'e');
    char tail[16];
    strcpy(tail, e);
    strcpy(e, "0000000000000000000000000000001");
    strcat(s, tail);
    check(s);
}

static void random_decimal(char *s) {
    char *p = s;
    if (rnd(4) == 0) *p++ = ' ';
    if (rnd(3) == 0) *p++ = rnd(2) ? '-' : '+';
    int nd = 1 + (int)rnd(rnd(8) == 0 ? 60 : 20);
    int point = rnd(3) ? (int)rnd(nd + 1) : -1;
    for (int i = 0; i < nd; i++) {
        if (i == point) *p++ = '.';
        *p++ = (char)('0' + (i == 0 && rnd(3) ? 1 + rnd(9) : rnd(10)));
    }
    if (rnd(4)) {
        int range = rnd(3) == 0 ? 700 : 80;
        p += sprintf(p, "%c%d", rnd(2) ? 'e' : 'E', (int)rnd(range) - range / 2);
    }
    *p = 0;
}

int main(void) {
    static char s[4096];
    static const char *fixed[] = {
        "", " ", "+", "-", ".", "e5", "0", "-0", "+0.0e-999999", "1e", "1e+", "1e-", "1.e5",
        ".5", "5.", "0x", "0x.", "0x.p1", "0xg", "0x1p", "0x1p-", "0x1.8p1", "0X.8P-1",
        "-0x1.fffffffffffff8p1023", "0x1p-1074", "0x1p-1075", "0x1.0000000000001p-1075",
        "0x1.ffffffffffffffp-1023", "0x1.fffffffffffff7p-1023", "0x1p1024", "0x1p-99999999999",
        "inf", "INF", "-Infinity", "infinit", "infx", "nan", "-NaN", "nan()", "nan(123)",
        "nan(0x7)", "nan(077)", "nan(abc)", "nan(12", "nan(0x)", "nan(99999999999999999999)",
        "nan(0xffffffffffffffffff)", "nanx", "1e308", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.797693134862315807937e308", "1.7976931348623159e308",
        "2e308", "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.225073858507201136e-308",
        "1e-400", "3.4028235e38", "3.40282356779733661637539395458142568448e38", "1.4e-45",
        "7.006492321624085e-46", "1.1754942e-38", "1.17549421e-38", "123456789012345678901234",
        "9007199254740993", "9007199254740992.5", "0.1", "  \t\n-12.5e-1xyz", "1e23",
        "8.589973e9", "1e-5", "0.000000000000000000000000000000001e33"};
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++) check(fixed[i]);
    for (int r = 0; r < 40000; r++) {
        random_decimal(s);
        check(s);
    }
    for (int r = 0; r < 15000; r++) {
        double x = random_double();
        halfway_double(x);
        if (r % 5 == 0) halfway_double(nextafter(0, 1) * rnd(1000));
        float f = (float)x;
        if (isfinite(f) && f != FLT_MAX) halfway_float(f);
    }
    for (int r = 0; r < 10000; r++) {
        /* Hexadecimal: random hex digits, point and binary exponent. */
        char *p = s;
        if (rnd(3) == 0) *p++ = '-';
        p += sprintf(p, "0x");
        int nd = 1 + (int)rnd(rnd(4) == 0 ? 30 : 16);
        int point = rnd(2) ? (int)rnd(nd + 1) : -1;
        for (int i = 0; i < nd; i++) {
            if (i == point) *p++ = '.';
            *p++ = "0123456789abcdefABCDEF"[rnd(22)];
        }
        if (rnd(4)) sprintf(p, "p%d", (int)rnd(2400) - 1200);
        else *p = 0;
        check(s);
    }
    for (int r = 0; r < 300; r++) {
        /* Longer than 800 significant digits, with exponents reaching both ends. */
        char *p = s;
        int nd = 780 + (int)rnd(300);
        *p++ = (char)('1' + rnd(9));
        for (int i = 1; i < nd; i++) *p++ = (char)('0' + (rnd(4) ? 0 : rnd(10)));
        if (rnd(2)) p[-1 - (int)rnd(50)] = (char)('0' + rnd(10));
        sprintf(p, "e%d", -(int)rnd(1500) + 300);
        check(s);
    }
    printf("strtod: %ld checks, %d mismatches\n", checks, fails);
    return fails != 0;
}
