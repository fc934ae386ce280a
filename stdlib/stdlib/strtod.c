/* strtod, strtof and atof of the ompcc device C library (C11 7.22.1.3), also behind wcstod
 * and wcstof: leading white space, sign, decimal and hexadecimal floating constants,
 * "inf"/"infinity", "nan" and "nan(n-char-sequence)" (glibc's payload rule), end pointer.
 *
 * Results are correctly rounded (round to nearest, ties to even), as glibc's are: short
 * inputs take Clinger's fast path (an exact integer times an exact power of ten, one IEEE
 * rounding); every other decimal input is rounded by comparing it, as an exact big integer
 * ratio, with the halfway points between candidates (a double estimate gives the first
 * candidate, comparisons move it to the right one). Only the first 800 significant digits
 * are kept, plus whether a later one is non-zero: a halfway point of a double has at most
 * 767 significant digits, so the dropped ones only break ties (upward).
 *
 * errno: ERANGE on overflow (the result is +-inf, HUGE_VAL) and on underflow when the
 * result is inexact and tiny after rounding (x86 glibc's rule: a result that rounds to the
 * smallest normal from below is not tiny), as glibc sets it.
 *
 * Stack use per call is about 4 KB (the digits and five big integers). */
#include "internal.h"
#include "ompcc_errno.h"
#include "ompcc_stdlib.h"

#define MAX_DIGITS 800
/* 32-bit words of a big integer: D * 5^e2 and (2m + 1) * 5^e5 shifted by the binary
 * exponents stay below 4,000 bits for the inputs that reach the slow path. */
#define BIG_WORDS 144

typedef struct {
    int n; /* used words; w[n - 1] != 0, or n == 0 for zero */
    ompcc_u32 w[BIG_WORDS];
} big;

/* An IEEE binary format: P significand bits (with the hidden one), the exponent of the
 * smallest subnormal's unit, the smallest and largest normal exponents. */
typedef struct {
    int p;
    int kmin;
    int emin;
    int emax;
} format;

static const format ompcc_binary64 = {53, -1074, -1022, 1023};
static const format ompcc_binary32 = {24, -149, -126, 127};

/* The characters of a narrow (width 1) or wide (width 4, wchar_t) string. */
typedef struct {
    const void *s;
    int width;
} text;

static int at(const text *t, long i) {
    if (t->width == 1) {
        return ((const unsigned char *)t->s)[i];
    }
    return ((const int *)t->s)[i];
}

static int lower(int c) {
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = lower(c);
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

static int is_digit(int c) {
    return c >= '0' && c <= '9';
}

/* Whether the characters at i spell the lower-case letters a, b, c, d, e (up to the first
 * 0), ignoring case. (Letters, not a string literal: the library keeps no literals, whose
 * globals would share names with the user module's.) */
static int matches(const text *t, long i, int a, int b, int c, int d, int e) {
    int w[5] = {a, b, c, d, e};
    for (int k = 0; k < 5 && w[k] != 0; k++) {
        if (lower(at(t, i + k)) != w[k]) {
            return 0;
        }
    }
    return 1;
}

/* ----- big integers: little-endian 32-bit words. Results that would not fit are cut to
 * BIG_WORDS words; the input bounds of the slow path keep every value below that. ----- */

static void big_set(big *b, ompcc_u64 v) {
    b->n = 0;
    while (v != 0) {
        b->w[b->n++] = (ompcc_u32)v;
        v >>= 32;
    }
}

static void big_copy(big *dst, const big *src) {
    dst->n = src->n;
    for (int i = 0; i < src->n; i++) {
        dst->w[i] = src->w[i];
    }
}

/* b = b * m + add. */
static void big_mul_add(big *b, ompcc_u32 m, ompcc_u32 add) {
    ompcc_u64 carry = add;
    for (int i = 0; i < b->n; i++) {
        ompcc_u64 v = (ompcc_u64)b->w[i] * m + carry;
        b->w[i] = (ompcc_u32)v;
        carry = v >> 32;
    }
    if (carry != 0 && b->n < BIG_WORDS) {
        b->w[b->n++] = (ompcc_u32)carry;
    }
    while (b->n > 0 && b->w[b->n - 1] == 0) {
        b->n--;
    }
}

/* b = b * 5^e. */
static void big_mul_pow5(big *b, long e) {
    const ompcc_u32 pow5_13 = 1220703125u;
    for (; e >= 13; e -= 13) {
        big_mul_add(b, pow5_13, 0);
    }
    ompcc_u32 m = 1;
    for (; e > 0; e--) {
        m *= 5;
    }
    big_mul_add(b, m, 0);
}

/* b = b * 2^s, s >= 0. */
static void big_shl(big *b, long s) {
    if (b->n == 0) {
        return;
    }
    long words = s / 32;
    int bits = (int)(s % 32);
    int n = b->n + (int)(words < BIG_WORDS ? words : BIG_WORDS) + 1;
    if (n > BIG_WORDS) {
        n = BIG_WORDS;
    }
    for (int i = n - 1; i >= 0; i--) {
        long from = i - words;
        ompcc_u64 hi = from >= 0 && from < b->n ? b->w[from] : 0;
        ompcc_u64 lo = from >= 1 && from - 1 < b->n ? b->w[from - 1] : 0;
        ompcc_u64 v = bits == 0 ? hi : (hi << bits) | (lo >> (32 - bits));
        b->w[i] = (ompcc_u32)v;
    }
    b->n = n;
    while (b->n > 0 && b->w[b->n - 1] == 0) {
        b->n--;
    }
}

static int big_cmp(const big *a, const big *b) {
    if (a->n != b->n) {
        return a->n < b->n ? -1 : 1;
    }
    for (int i = a->n - 1; i >= 0; i--) {
        if (a->w[i] != b->w[i]) {
            return a->w[i] < b->w[i] ? -1 : 1;
        }
    }
    return 0;
}

static int bit_length64(ompcc_u64 v) {
    int n = 0;
    while (v != 0) {
        n++;
        v >>= 1;
    }
    return n;
}

static long big_bits(const big *b) {
    if (b->n == 0) {
        return 0;
    }
    return 32L * (b->n - 1) + bit_length64(b->w[b->n - 1]);
}

/* The 64 leading bits of b (left aligned: b / 2^(bits - 64)) as a double, an estimate. */
static double big_top(const big *b) {
    long bits = big_bits(b);
    if (bits <= 64) {
        ompcc_u64 v = b->n > 0 ? b->w[0] : 0;
        if (b->n > 1) {
            v |= (ompcc_u64)b->w[1] << 32;
        }
        return (double)(v << (64 - bits));
    }
    long lo = bits - 64;
    int wi = (int)(lo / 32), off = (int)(lo % 32);
    ompcc_u64 v = ((ompcc_u64)b->w[wi + 1] << 32 | b->w[wi]) >> off;
    if (off > 0 && wi + 2 < b->n) {
        v |= (ompcc_u64)b->w[wi + 2] << (64 - off);
    }
    return (double)v;
}

/* dst = dst + src. */
static void big_add(big *dst, const big *src) {
    ompcc_u64 carry = 0;
    int n = dst->n > src->n ? dst->n : src->n;
    for (int i = 0; i < n; i++) {
        ompcc_u64 v = carry + (i < dst->n ? dst->w[i] : 0) + (i < src->n ? src->w[i] : 0);
        dst->w[i] = (ompcc_u32)v;
        carry = v >> 32;
    }
    dst->n = n;
    if (carry != 0 && n < BIG_WORDS) {
        dst->w[dst->n++] = (ompcc_u32)carry;
    }
}

/* ----- the decimal slow path ----- */

/* A decimal value D * 10^e10 as the ratio (L * 2^two) / F, with `sticky` when digits were
 * dropped (the value is a little above). */
typedef struct {
    big l;
    big f;
    long two;
    int sticky;
    big x; /* scratch */
    big y; /* scratch */
    big z; /* scratch */
} ratio;

/* Compares the value with c * 2^k: -1, 0 or 1 (dropped digits make an equal value
 * greater). */
static int cmp_at(ratio *r, ompcc_u64 c, long k) {
    long t = r->two - k;
    big_copy(&r->x, &r->l);
    big_copy(&r->y, &r->f);
    big_mul_add(&r->y, (ompcc_u32)(c >> 32), 0);
    big_shl(&r->y, 32);
    big_copy(&r->z, &r->f);
    big_mul_add(&r->z, (ompcc_u32)c, 0);
    big_add(&r->y, &r->z);
    if (t >= 0) {
        big_shl(&r->x, t);
    } else {
        big_shl(&r->y, -t);
    }
    int c0 = big_cmp(&r->x, &r->y);
    return c0 == 0 && r->sticky ? 1 : c0;
}

/* The integer m nearest to value / 2^k (ties to even), starting from the estimate m. */
static ompcc_u64 round_at(ratio *r, long k, ompcc_u64 m) {
    for (int guard = 0; guard < 200; guard++) {
        int c = cmp_at(r, 2 * m + 1, k - 1);
        if (c > 0 || (c == 0 && (m & 1))) {
            m++;
            continue;
        }
        if (m > 0) {
            c = cmp_at(r, 2 * m - 1, k - 1);
            if (c < 0 || (c == 0 && (m & 1))) {
                m--;
                continue;
            }
        }
        break;
    }
    return m;
}

/* Sign, significand and exponent of a result before encoding; `range` is set when errno
 * must become ERANGE. */
typedef struct {
    ompcc_u64 m;
    long k;
    int inf;
    int range;
} rounded;

/* Rounds D * 10^e10 (digits d[0..nd), d[0] != 0; `sticky` when later non-zero digits were
 * dropped) to format `fm`. */
static rounded round_decimal(const unsigned char *d, int nd, long e10, int sticky,
                             const format *fm) {
    rounded out = {0, fm->kmin, 0, 0};
    ratio r;
    big_set(&r.l, 0);
    for (int i = 0; i < nd; i++) {
        big_mul_add(&r.l, 10, d[i]);
    }
    big_set(&r.f, 1);
    r.sticky = sticky;
    if (e10 >= 0) {
        big_mul_pow5(&r.l, e10);
        r.two = e10;
    } else {
        big_mul_pow5(&r.f, -e10);
        r.two = e10;
    }
    /* floor(log2(value)) is e0 or e0 - 1. */
    long lb = big_bits(&r.l), fb = big_bits(&r.f);
    long e0 = lb - fb + r.two;
    long e = cmp_at(&r, 1, e0) >= 0 ? e0 : e0 - 1;
    if (e > fm->emax) {
        out.inf = 1;
        out.range = 1;
        return out;
    }
    long k = e - (fm->p - 1);
    if (k < fm->kmin) {
        k = fm->kmin;
    }
    /* Estimate of value / 2^k from the leading bits. */
    double est = big_top(&r.l) / big_top(&r.f);
    long n = lb - fb + r.two - k;
    ompcc_u64 m = 0;
    if (n >= -2) {
        for (; n > 0; n--) {
            est *= 2.0;
        }
        for (; n < 0; n++) {
            est *= 0.5;
        }
        m = (ompcc_u64)(est + 0.5);
    }
    m = round_at(&r, k, m);
    out.m = m;
    out.k = k;
    int inexact = sticky || cmp_at(&r, m, k) != 0;
    if (m >> fm->p != 0) {
        out.m = m >> 1;
        out.k = k + 1;
        if (out.k + fm->p - 1 > fm->emax) {
            out.inf = 1;
            out.range = 1;
            return out;
        }
    }
    if (e < fm->emin && inexact) {
        /* Tiny after rounding unless the value rounds, at full precision and unbounded
         * exponent, up to the smallest normal. */
        int tiny = 1;
        if (e == fm->emin - 1) {
            long kk = e - (fm->p - 1);
            ompcc_u64 full = round_at(&r, kk, (1ULL << fm->p) - 1);
            tiny = full >> fm->p == 0;
        }
        out.range = tiny;
    }
    return out;
}

/* Rounds the exact m * 2^e2 (plus a little when `sticky`) to format `fm`; m != 0. */
static rounded round_binary(ompcc_u64 m, long e2, int sticky, const format *fm) {
    rounded out = {0, fm->kmin, 0, 0};
    long e = bit_length64(m) - 1 + e2;
    if (e > fm->emax) {
        out.inf = 1;
        out.range = 1;
        return out;
    }
    long k = e - (fm->p - 1);
    if (k < fm->kmin) {
        k = fm->kmin;
    }
    long shift = k - e2;
    ompcc_u64 q;
    int half = 0, rest = sticky;
    if (shift <= 0) {
        q = m << -shift;
    } else if (shift > 64) {
        q = 0;
        rest |= m != 0;
    } else {
        q = shift == 64 ? 0 : m >> shift;
        half = (int)(m >> (shift - 1) & 1);
        rest |= (m & ((1ULL << (shift - 1)) - 1)) != 0;
    }
    int inexact = half || rest;
    ompcc_u64 r = q + (ompcc_u64)(half && (rest || (q & 1)));
    out.m = r;
    out.k = k;
    if (r >> fm->p != 0) {
        out.m = r >> 1;
        out.k = k + 1;
        if (out.k + fm->p - 1 > fm->emax) {
            out.inf = 1;
            out.range = 1;
            return out;
        }
    }
    if (e < fm->emin && inexact) {
        int tiny = 1;
        if (e == fm->emin - 1) {
            /* At full precision: does m * 2^e2 round up to 2^emin? */
            long s = (e - (fm->p - 1)) - e2;
            if (s > 0 && s <= 64) {
                ompcc_u64 qq = s == 64 ? 0 : m >> s;
                int h = (int)(m >> (s - 1) & 1);
                int rr = sticky || (m & ((1ULL << (s - 1)) - 1)) != 0;
                qq += (ompcc_u64)(h && (rr || (qq & 1)));
                tiny = qq >> fm->p == 0;
            }
        }
        out.range = tiny;
    }
    return out;
}

/* The IEEE bits of a rounded result. */
static ompcc_u64 encode(rounded v, const format *fm) {
    ompcc_u64 frac_mask = (1ULL << (fm->p - 1)) - 1;
    ompcc_u64 exp_all = (ompcc_u64)(2 * fm->emax + 1);
    if (v.inf) {
        return exp_all << (fm->p - 1);
    }
    if (v.m >> (fm->p - 1) == 0) {
        return v.m; /* subnormal or zero */
    }
    ompcc_u64 biased = (ompcc_u64)(v.k + (fm->p - 1) + fm->emax);
    return biased << (fm->p - 1) | (v.m & frac_mask);
}

/* 10^e for 0 <= e <= 22, exactly. */
static double pow10_exact(int e) {
    double v = 1.0;
    for (int i = 0; i < e; i++) {
        v *= 10.0;
    }
    return v;
}

/* strtoull(seq, &end, 0) on the characters [i, stop) when it converts exactly all of
 * them: stores the value (ULLONG_MAX and ERANGE when it overflows) and returns 1. */
static int payload_value(const text *t, long i, long stop, ompcc_u64 *value) {
    int base = 10;
    if (at(t, i) == '0' && lower(at(t, i + 1)) == 'x' && hex_value(at(t, i + 2)) >= 0) {
        base = 16;
        i += 2;
    } else if (at(t, i) == '0') {
        base = 8;
    }
    ompcc_u64 v = 0;
    int over = 0;
    long k = i;
    for (; k < stop && hex_value(at(t, k)) >= 0 && hex_value(at(t, k)) < base; k++) {
        ompcc_u64 dv = (ompcc_u64)hex_value(at(t, k));
        if (v > (~0ULL - dv) / (ompcc_u64)base) {
            over = 1;
        } else {
            v = v * (ompcc_u64)base + dv;
        }
    }
    if (k == i || k != stop) {
        return 0;
    }
    if (over) {
        OMPCC_SET_ERRNO(OMPCC_ERANGE);
        v = ~0ULL;
    }
    *value = v;
    return 1;
}

/* Parses the text at 0 with format `fm`; stores the IEEE bits (without sign) in *bits and
 * the sign in *negative; returns the index after the number (0 when there is none). */
static long scan(const text *t, const format *fm, ompcc_u64 *bits, int *negative) {
    long i = 0;
    *bits = 0;
    *negative = 0;
    while (at(t, i) == ' ' || (at(t, i) >= '\t' && at(t, i) <= '\r')) {
        i++;
    }
    if (at(t, i) == '+' || at(t, i) == '-') {
        *negative = at(t, i) == '-';
        i++;
    }
    if (matches(t, i, 'i', 'n', 'f', 0, 0)) {
        *bits = (ompcc_u64)(2 * fm->emax + 1) << (fm->p - 1);
        return matches(t, i + 3, 'i', 'n', 'i', 't', 'y') ? i + 8 : i + 3;
    }
    if (matches(t, i, 'n', 'a', 'n', 0, 0)) {
        /* Quiet NaN; "nan(seq)" puts seq's value (strtoull base 0, when it is all of seq)
         * in the payload bits below the quiet bit. */
        ompcc_u64 quiet = 1ULL << (fm->p - 2);
        *bits = (ompcc_u64)(2 * fm->emax + 1) << (fm->p - 1) | quiet;
        long j = i + 3;
        if (at(t, j) != '(') {
            return j;
        }
        long q = j + 1;
        while (is_digit(at(t, q)) || (lower(at(t, q)) >= 'a' && lower(at(t, q)) <= 'z') ||
               at(t, q) == '_') {
            q++;
        }
        if (at(t, q) != ')') {
            return j;
        }
        ompcc_u64 payload;
        if (payload_value(t, j + 1, q, &payload)) {
            *bits |= payload & (quiet - 1);
        }
        return q + 1;
    }
    int c = at(t, i);
    if (c == '0' && lower(at(t, i + 1)) == 'x' &&
        (hex_value(at(t, i + 2)) >= 0 || (at(t, i + 2) == '.' && hex_value(at(t, i + 3)) >= 0))) {
        long j = i + 2;
        ompcc_u64 m = 0;
        long e2 = 0;
        int sticky = 0;
        for (; hex_value(at(t, j)) >= 0; j++) {
            int v = hex_value(at(t, j));
            if (m >> 60 == 0) {
                m = m * 16 + (ompcc_u64)v;
            } else {
                sticky |= v != 0;
                e2 += 4;
            }
        }
        if (at(t, j) == '.') {
            for (j++; hex_value(at(t, j)) >= 0; j++) {
                int v = hex_value(at(t, j));
                if (m >> 60 == 0) {
                    m = m * 16 + (ompcc_u64)v;
                    e2 -= 4;
                } else {
                    sticky |= v != 0;
                }
            }
        }
        if (lower(at(t, j)) == 'p') {
            long q = j + 1;
            int eneg = 0;
            if (at(t, q) == '+' || at(t, q) == '-') {
                eneg = at(t, q) == '-';
                q++;
            }
            if (is_digit(at(t, q))) {
                long x = 0;
                for (; is_digit(at(t, q)); q++) {
                    if (x < 100000000) {
                        x = x * 10 + (at(t, q) - '0');
                    }
                }
                e2 += eneg ? -x : x;
                j = q;
            }
        }
        if (m != 0) {
            rounded v = round_binary(m, e2, sticky, fm);
            if (v.range) {
                OMPCC_SET_ERRNO(OMPCC_ERANGE);
            }
            *bits = encode(v, fm);
        }
        return j;
    }
    /* Decimal: D * 10^e10 with D the significant digits (leading zeros skipped). */
    unsigned char d[MAX_DIGITS];
    int nd = 0, sticky = 0, any = 0;
    long e10 = 0;
    long j = i;
    for (; is_digit(at(t, j)); j++) {
        int v = at(t, j) - '0';
        any = 1;
        if (nd == 0 && v == 0) {
            continue;
        }
        if (nd < MAX_DIGITS) {
            d[nd++] = (unsigned char)v;
        } else {
            sticky |= v != 0;
            e10++;
        }
    }
    if (at(t, j) == '.') {
        for (j++; is_digit(at(t, j)); j++) {
            int v = at(t, j) - '0';
            any = 1;
            if (nd == 0 && v == 0) {
                e10--;
                continue;
            }
            if (nd < MAX_DIGITS) {
                d[nd++] = (unsigned char)v;
                e10--;
            } else {
                sticky |= v != 0;
            }
        }
    }
    if (!any) {
        *negative = 0;
        return 0;
    }
    if (lower(at(t, j)) == 'e') {
        long q = j + 1;
        int eneg = 0;
        if (at(t, q) == '+' || at(t, q) == '-') {
            eneg = at(t, q) == '-';
            q++;
        }
        if (is_digit(at(t, q))) {
            long x = 0;
            for (; is_digit(at(t, q)); q++) {
                if (x < 100000000) {
                    x = x * 10 + (at(t, q) - '0');
                }
            }
            e10 += eneg ? -x : x;
            j = q;
        }
    }
    while (nd > 0 && d[nd - 1] == 0) {
        nd--;
        e10++;
    }
    if (nd == 0) {
        return j;
    }
    /* Out of range however the digits go: value >= 10^(nd + e10 - 1). */
    long top = nd + e10;
    long too_big = fm->p == 53 ? 310 : 40;
    long too_small = fm->p == 53 ? -324 : -46;
    if (top > too_big) {
        OMPCC_SET_ERRNO(OMPCC_ERANGE);
        *bits = (ompcc_u64)(2 * fm->emax + 1) << (fm->p - 1);
        return j;
    }
    if (top < too_small) {
        OMPCC_SET_ERRNO(OMPCC_ERANGE);
        return j;
    }
    /* Clinger's fast path: an exact integer times or over an exact power of ten. */
    if (nd <= 15 && !sticky && e10 >= -22 && e10 <= 22) {
        ompcc_u64 w = 0;
        for (int k = 0; k < nd; k++) {
            w = w * 10 + d[k];
        }
        if (fm->p == 53 && w >> 53 == 0) {
            double x = (double)w;
            x = e10 >= 0 ? x * pow10_exact((int)e10) : x / pow10_exact((int)-e10);
            *bits = ompcc_bits(x);
            return j;
        }
        if (fm->p == 24 && w >> 24 == 0 && e10 >= -10 && e10 <= 10) {
            float x = (float)w;
            float p10 = (float)pow10_exact((int)(e10 >= 0 ? e10 : -e10));
            x = e10 >= 0 ? x * p10 : x / p10;
            *bits = ompcc_bitsf(x);
            return j;
        }
    }
    rounded v = round_decimal(d, nd, e10, sticky, fm);
    if (v.range) {
        OMPCC_SET_ERRNO(OMPCC_ERANGE);
    }
    *bits = encode(v, fm);
    return j;
}

double __ompcc_i_strtod(const void *s, int width, long *end) {
    text t = {s, width};
    ompcc_u64 bits;
    int negative;
    *end = scan(&t, &ompcc_binary64, &bits, &negative);
    return ompcc_from_bits(bits | (ompcc_u64)negative << 63);
}

float __ompcc_i_strtof(const void *s, int width, long *end) {
    text t = {s, width};
    ompcc_u64 bits;
    int negative;
    *end = scan(&t, &ompcc_binary32, &bits, &negative);
    return ompcc_from_bitsf((ompcc_u32)bits | (ompcc_u32)negative << 31);
}

double __ompcc_strtod(const char *restrict s, char **restrict end) {
    long n;
    double v = __ompcc_i_strtod(s, 1, &n);
    if (end != 0) {
        *end = (char *)s + n;
    }
    return v;
}

float __ompcc_strtof(const char *restrict s, char **restrict end) {
    long n;
    float v = __ompcc_i_strtof(s, 1, &n);
    if (end != 0) {
        *end = (char *)s + n;
    }
    return v;
}

double __ompcc_atof(const char *s) {
    return __ompcc_strtod(s, 0);
}
