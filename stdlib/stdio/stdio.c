/* The <stdio.h> string formatting functions of the ompcc device C library: vsnprintf,
 * snprintf, vsprintf, sprintf, printing exactly what glibc prints.
 *
 * Conversions d i u o x X c s p n % e E f F g G a A; flags - + space # 0; width and
 * precision, `*` included; length modifiers hh h l ll z j t (L, %lc and %ls: not supported,
 * the call returns -1). Floating-point conversions print the correctly rounded decimal value
 * of the exact binary number (ties to even, as glibc in the default rounding mode): the exact
 * decimal expansion comes from a small fixed-size big-integer (`pf_bn`), never from
 * floating-point arithmetic. snprintf returns the length it would have written; the output
 * is truncated to n - 1 bytes and always terminated when n > 0.
 *
 * Rules of the device library hold: no system header (va_list is the compiler's
 * `__builtin_va_list`), no recursion, no mutable globals, no long double. Static names
 * carry a `pf_` prefix: the library's sources are compiled as one unit. */
#include "ompcc_stdio.h"

typedef unsigned int pf_u32;
typedef unsigned long pf_u64;

/* ----- output ----- */

/* Where the characters go: `cap` bytes at `s` (terminator included); `len` counts every
 * character produced, also those past the end. */
struct pf_sink {
    char *s;
    unsigned long cap;
    unsigned long len;
};

static void pf_put(struct pf_sink *o, char c) {
    if (o->len + 1 < o->cap) {
        o->s[o->len] = c;
    }
    o->len++;
}

static void pf_rep(struct pf_sink *o, char c, long n) {
    for (long i = 0; i < n; i++) {
        pf_put(o, c);
    }
}

static void pf_str(struct pf_sink *o, const char *p, long n) {
    for (long i = 0; i < n; i++) {
        pf_put(o, p[i]);
    }
}

/* A parsed conversion specification; prec < 0: none. */
struct pf_spec {
    int left, plus, space, alt, zero;
    long width, prec;
    char conv;
};

/* Opens a field of `prelen` prefix characters (sign, 0x), `zeros` zeros and `body`
 * characters, padding to the width; returns the spaces the caller emits after the body. */
static long pf_open(struct pf_sink *o, const struct pf_spec *sp, const char *pre, long prelen,
                    long zeros, long body, int zero_ok) {
    long total = prelen + zeros + body;
    long pad = sp->width > total ? sp->width - total : 0;
    int zpad = zero_ok && sp->zero && !sp->left;
    if (!sp->left && !zpad) {
        pf_rep(o, ' ', pad);
    }
    pf_str(o, pre, prelen);
    if (zpad) {
        pf_rep(o, '0', pad);
    }
    pf_rep(o, '0', zeros);
    return sp->left ? pad : 0;
}

/* The sign character of a conversion that shows signs: '-', '+', ' ' or none (0). */
static char pf_sign(const struct pf_spec *sp, int neg) {
    return neg ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;
}

/* Named tables, not string literals: the device library's literals would be anonymous
 * globals that linking the library renames. */
static const char pf_lower[] = "0123456789abcdef";
static const char pf_upper[] = "0123456789ABCDEF";
static const char pf_words[6][8] = {"inf", "INF", "nan", "NAN", "(nil)", "(null)"};

/* ----- integers ----- */

/* %d %i %u %o %x %X %p: `v` is the magnitude; `sign` the sign character or 0. */
static void pf_int(struct pf_sink *o, const struct pf_spec *sp, pf_u64 v, char sign, int base,
                   int upper, int prefix) {
    char dig[24];
    int n = 0;
    const char *xd = upper ? pf_upper : pf_lower;
    while (v != 0) {
        dig[n++] = xd[v % (pf_u64)base];
        v /= (pf_u64)base;
    }
    long prec = sp->prec < 0 ? 1 : sp->prec;
    long zeros = prec > n ? prec - n : 0;
    char pre[3];
    long pl = 0;
    if (sign) {
        pre[pl++] = sign;
    }
    if (sp->alt && base == 8 && zeros == 0 && (n == 0 || dig[n - 1] != '0')) {
        zeros = 1;
    }
    if (prefix && n > 0) {
        pre[pl++] = '0';
        pre[pl++] = upper ? 'X' : 'x';
    }
    long after = pf_open(o, sp, pre, pl, zeros, n, sp->prec < 0);
    while (n > 0) {
        pf_put(o, dig[--n]);
    }
    pf_rep(o, ' ', after);
}

/* ----- exact decimal expansion of a double ----- */

/* Little-endian 32-bit words; n words used (w[n - 1] != 0, or n == 0 for zero). 36 words
 * hold the largest integer part (< 2^1024) and a fraction of 1074 bits times 10^9. */
#define PF_BN_WORDS 36

struct pf_bn {
    pf_u32 w[PF_BN_WORDS];
    int n;
};

static void pf_bn_trim(struct pf_bn *a) {
    while (a->n > 0 && a->w[a->n - 1] == 0) {
        a->n--;
    }
}

static void pf_bn_set(struct pf_bn *a, pf_u64 v) {
    a->w[0] = (pf_u32)v;
    a->w[1] = (pf_u32)(v >> 32);
    a->n = 2;
    pf_bn_trim(a);
}

/* a <<= k (the result fits: callers shift 53-bit values by at most 971). */
static void pf_bn_shl(struct pf_bn *a, int k) {
    if (a->n == 0) {
        return;
    }
    int ws = k / 32, bs = k % 32;
    int n = a->n + ws + 1;
    if (n > PF_BN_WORDS) {
        n = PF_BN_WORDS;
    }
    for (int i = n - 1; i >= 0; i--) {
        int h = i - ws, l = i - ws - 1;
        pf_u32 hi = h >= 0 && h < a->n ? a->w[h] : 0;
        pf_u32 lo = l >= 0 && l < a->n ? a->w[l] : 0;
        a->w[i] = bs ? (hi << bs) | (lo >> (32 - bs)) : hi;
    }
    a->n = n;
    pf_bn_trim(a);
}

/* a /= d; returns a % d. */
static pf_u32 pf_bn_div(struct pf_bn *a, pf_u32 d) {
    pf_u64 r = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        pf_u64 cur = (r << 32) | a->w[i];
        a->w[i] = (pf_u32)(cur / d);
        r = cur % d;
    }
    pf_bn_trim(a);
    return (pf_u32)r;
}

/* For a fraction f / 2^s (f < 2^s): f = f * 10^9; returns the integer part f >> s (the next
 * nine decimal digits) and keeps f mod 2^s. */
static pf_u32 pf_bn_frac9(struct pf_bn *f, int s) {
    pf_u64 carry = 0;
    for (int i = 0; i < f->n; i++) {
        pf_u64 t = (pf_u64)f->w[i] * 1000000000u + carry;
        f->w[i] = (pf_u32)t;
        carry = t >> 32;
    }
    if (carry != 0 && f->n < PF_BN_WORDS) {
        f->w[f->n++] = (pf_u32)carry;
    }
    int ws = s / 32, bs = s % 32;
    pf_u64 w0 = ws < f->n ? f->w[ws] : 0;
    pf_u64 w1 = ws + 1 < f->n ? f->w[ws + 1] : 0;
    pf_u32 top = (pf_u32)(((w1 << 32) | w0) >> bs);
    if (ws < f->n) {
        f->w[ws] &= (1u << bs) - 1;
        f->n = ws + 1;
        pf_bn_trim(f);
    }
    return top;
}

/* Decimal digits of a finite |x|: x = 0.d0 d1 d2 ... * 10^(e + 1), d0 != 0 (nd == 0: zero),
 * digits past nd are zero. `sticky`: nonzero digits follow the ones generated. A double's
 * expansion has at most 767 significant digits; chunks of nine may add eight zeros. */
#define PF_DIGITS 800

struct pf_dec {
    unsigned char d[PF_DIGITS];
    int nd;
    int e;
    int sticky;
};

/* Generates the expansion of |x| until it ends, or until more than `lim_sig` significant
 * digits or more than `lim_pos` digits after the point are known (so the digit after a
 * rounding position within those limits is always there). */
static void pf_decimal(double x, struct pf_dec *r, long lim_sig, long lim_pos) {
    union {
        double d;
        pf_u64 u;
    } b;
    b.d = x;
    int bexp = (int)((b.u >> 52) & 0x7ff);
    pf_u64 m = b.u & 0xfffffffffffffUL;
    if (bexp != 0) {
        m |= 1UL << 52;
    } else {
        bexp = 1;
    }
    int e2 = bexp - 1075; /* |x| = m * 2^e2 */
    r->nd = 0;
    r->e = -1;
    r->sticky = 0;
    if (m == 0) {
        r->e = 0;
        return;
    }
    struct pf_bn in, fr;
    int s = 0;
    if (e2 >= 0) {
        pf_bn_set(&in, m);
        pf_bn_shl(&in, e2);
        fr.n = 0;
    } else {
        s = -e2;
        pf_bn_set(&in, s < 64 ? m >> s : 0);
        pf_bn_set(&fr, s < 64 ? m & ((1UL << s) - 1) : m);
    }
    /* integer part: base 10^9 chunks, least significant first */
    pf_u32 chunks[40];
    int nc = 0;
    while (in.n > 0 && nc < 40) {
        chunks[nc++] = pf_bn_div(&in, 1000000000u);
    }
    for (int c = nc - 1; c >= 0; c--) {
        pf_u32 v = chunks[c];
        char t[9];
        for (int k = 8; k >= 0; k--) {
            t[k] = (char)(v % 10);
            v /= 10;
        }
        for (int k = 0; k < 9; k++) {
            if (r->nd == 0 && t[k] == 0) {
                continue;
            }
            r->d[r->nd++] = (unsigned char)t[k];
        }
    }
    r->e = r->nd - 1;
    /* fraction: nine digits at a time */
    long pos = 0;
    while (fr.n > 0 && r->nd <= lim_sig && pos <= lim_pos) {
        pf_u32 v = pf_bn_frac9(&fr, s);
        char t[9];
        for (int k = 8; k >= 0; k--) {
            t[k] = (char)(v % 10);
            v /= 10;
        }
        for (int k = 0; k < 9; k++) {
            if (r->nd == 0 && t[k] == 0) {
                r->e--;
            } else if (r->nd < PF_DIGITS) {
                r->d[r->nd++] = (unsigned char)t[k];
            } else {
                r->sticky |= t[k] != 0;
            }
        }
        pos += 9;
    }
    if (fr.n > 0) {
        r->sticky = 1;
    }
}

/* Digit i of the expansion (zero past the generated ones). */
static int pf_dig(const struct pf_dec *r, long i) {
    return i >= 0 && i < r->nd ? r->d[i] : 0;
}

/* Rounds to the digits of decimal exponent >= lo, ties to even on the exact value. */
static void pf_round(struct pf_dec *r, long lo) {
    if (r->nd == 0) {
        return;
    }
    long keep = r->e - lo + 1;
    if (keep >= r->nd) {
        return; /* only zeros are dropped (see pf_decimal's limits) */
    }
    if (keep < 0) {
        r->nd = 0; /* below half a unit of position lo */
        r->e = 0;
        return;
    }
    int rd = r->d[keep];
    int rest = r->sticky;
    for (long i = keep + 1; i < r->nd && !rest; i++) {
        rest = r->d[i] != 0;
    }
    int odd = keep > 0 && (r->d[keep - 1] & 1);
    int up = rd > 5 || (rd == 5 && (rest || odd));
    r->nd = (int)keep;
    r->sticky = 0;
    if (up) {
        long i = keep - 1;
        while (i >= 0 && r->d[i] == 9) {
            r->d[i] = 0;
            i--;
        }
        if (i >= 0) {
            r->d[i]++;
        } else {
            /* 99.9 -> 100 (or nothing kept -> one unit of position lo) */
            r->d[0] = 1;
            r->nd = 1;
            r->e = keep == 0 ? (int)lo : r->e + 1;
        }
    }
    if (r->nd == 0) {
        r->e = 0;
    }
}

/* Drops trailing zero digits. */
static void pf_trim(struct pf_dec *r) {
    while (r->nd > 0 && r->d[r->nd - 1] == 0) {
        r->nd--;
    }
    if (r->nd == 0) {
        r->e = 0;
    }
}

/* Number of decimal digits of the exponent |x| (at least two, as C requires). */
static long pf_exp_len(long x) {
    long n = 2;
    for (long v = x < 0 ? -x : x; v >= 100; v /= 10) {
        n++;
    }
    return n;
}

/* Body lengths and emitters of the two decimal styles. */
static long pf_fixed_len(const struct pf_dec *r, long prec, int alt) {
    long ilen = r->nd > 0 && r->e >= 0 ? r->e + 1 : 1;
    return ilen + (prec > 0 || alt ? prec + 1 : 0);
}

static void pf_fixed(struct pf_sink *o, const struct pf_dec *r, long prec, int alt) {
    if (r->nd > 0 && r->e >= 0) {
        for (long i = 0; i <= r->e; i++) {
            pf_put(o, (char)('0' + pf_dig(r, i)));
        }
    } else {
        pf_put(o, '0');
    }
    if (prec > 0 || alt) {
        pf_put(o, '.');
    }
    long e = r->nd > 0 ? r->e : 0;
    for (long k = 1; k <= prec; k++) {
        pf_put(o, (char)('0' + pf_dig(r, e + k)));
    }
}

static long pf_sci_len(const struct pf_dec *r, long prec, int alt) {
    return 1 + (prec > 0 || alt ? prec + 1 : 0) + 2 + pf_exp_len(r->e);
}

static void pf_sci(struct pf_sink *o, const struct pf_dec *r, long prec, int alt, int upper) {
    pf_put(o, (char)('0' + pf_dig(r, 0)));
    if (prec > 0 || alt) {
        pf_put(o, '.');
    }
    for (long k = 1; k <= prec; k++) {
        pf_put(o, (char)('0' + pf_dig(r, k)));
    }
    pf_put(o, upper ? 'E' : 'e');
    long x = r->e;
    pf_put(o, x < 0 ? '-' : '+');
    if (x < 0) {
        x = -x;
    }
    char t[8];
    int n = 0;
    do {
        t[n++] = (char)('0' + x % 10);
        x /= 10;
    } while (x != 0);
    if (n < 2) {
        t[n++] = '0';
    }
    while (n > 0) {
        pf_put(o, t[--n]);
    }
}

/* %a %A: hexadecimal, as glibc prints it (subnormals as 0x0.xxxp-1022; a rounding carry
 * shows in the leading digit, 0x2.00p+0). */
static void pf_hex(struct pf_sink *o, const struct pf_spec *sp, pf_u64 bits, char sign,
                   int upper) {
    int bexp = (int)((bits >> 52) & 0x7ff);
    pf_u64 frac = bits & 0xfffffffffffffUL;
    int lead = bexp != 0 ? 1 : 0;
    long x = bexp != 0 ? bexp - 1023 : (frac != 0 ? -1022 : 0);
    long nd = 13;
    if (sp->prec < 0) {
        while (nd > 0 && ((frac >> (4 * (13 - nd))) & 0xf) == 0) {
            nd--;
        }
    } else if (sp->prec < 13) {
        nd = sp->prec;
        int drop = 4 * (13 - (int)nd);
        pf_u64 rem = frac & ((1UL << drop) - 1);
        pf_u64 half = 1UL << (drop - 1);
        frac >>= drop;
        if (rem > half || (rem == half && (nd > 0 ? (frac & 1) : (pf_u64)(lead & 1)))) {
            frac++;
            if (frac >> (4 * nd)) {
                frac &= (1UL << (4 * nd)) - 1;
                lead++;
            }
        }
        frac <<= drop;
    }
    long prec = sp->prec < 0 ? nd : sp->prec;
    const char *xd = upper ? pf_upper : pf_lower;
    long xlen = 1;
    for (long v = x < 0 ? -x : x; v >= 10; v /= 10) {
        xlen++;
    }
    char pre[3];
    long pl = 0;
    if (sign) {
        pre[pl++] = sign;
    }
    pre[pl++] = '0';
    pre[pl++] = upper ? 'X' : 'x';
    long body = 1 + (prec > 0 || sp->alt ? prec + 1 : 0) + 2 + xlen;
    long after = pf_open(o, sp, pre, pl, 0, body, 1);
    pf_put(o, (char)('0' + lead));
    if (prec > 0 || sp->alt) {
        pf_put(o, '.');
    }
    for (long k = 0; k < prec; k++) {
        pf_put(o, k < 13 ? xd[(frac >> (4 * (12 - k))) & 0xf] : '0');
    }
    pf_put(o, upper ? 'P' : 'p');
    pf_put(o, x < 0 ? '-' : '+');
    char t[8];
    int n = 0;
    pf_u64 ax = (pf_u64)(x < 0 ? -x : x);
    do {
        t[n++] = (char)('0' + ax % 10);
        ax /= 10;
    } while (ax != 0);
    while (n > 0) {
        pf_put(o, t[--n]);
    }
    pf_rep(o, ' ', after);
}

/* %e %E %f %F %g %G %a %A of `x`. */
static void pf_float(struct pf_sink *o, const struct pf_spec *sp, double x) {
    union {
        double d;
        pf_u64 u;
    } b;
    b.d = x;
    char conv = sp->conv;
    int upper = conv == 'E' || conv == 'F' || conv == 'G' || conv == 'A';
    char sign = pf_sign(sp, (int)(b.u >> 63));
    char pre[1];
    long pl = 0;
    if (sign) {
        pre[pl++] = sign;
    }
    if (((b.u >> 52) & 0x7ff) == 0x7ff) {
        const char *w = pf_words[((b.u & 0xfffffffffffffUL) != 0 ? 2 : 0) + upper];
        long after = pf_open(o, sp, pre, pl, 0, 3, 0);
        pf_str(o, w, 3);
        pf_rep(o, ' ', after);
        return;
    }
    if (conv == 'a' || conv == 'A') {
        pf_hex(o, sp, b.u, sign, upper);
        return;
    }
    struct pf_dec r;
    long prec = sp->prec < 0 ? 6 : sp->prec;
    int sci;
    if (conv == 'e' || conv == 'E') {
        pf_decimal(x, &r, prec + 1, 0x7fffffffL);
        pf_round(&r, r.e - prec);
        sci = 1;
    } else if (conv == 'f' || conv == 'F') {
        pf_decimal(x, &r, 0x7fffffffL, prec);
        pf_round(&r, -prec);
        sci = 0;
    } else {
        long p = prec == 0 ? 1 : prec;
        pf_decimal(x, &r, p, 0x7fffffffL);
        long xb = r.nd > 0 ? r.e : 0;
        pf_round(&r, r.e - (p - 1));
        long xe = r.nd > 0 ? r.e : 0;
        if (p > xe && xe >= -4) {
            sci = 0;
            prec = p - 1 - xe;
        } else {
            sci = 1;
            /* glibc: when rounding carries 99.5 (%#.2g) from the f style into the e style,
             * the e style keeps the f style's zero fraction digits ("1.e+02", where C
             * reads "1.0e+02"); only '#' shows it. Printed as glibc does. */
            prec = xb == p - 1 && xe == p ? 0 : p - 1;
        }
        if (!sp->alt) {
            pf_trim(&r);
            long need = sci ? (r.nd > 0 ? r.nd - 1 : 0) : (r.nd > 0 ? r.nd - 1 - r.e : 0);
            if (need < 0) {
                need = 0;
            }
            if (need < prec) {
                prec = need;
            }
        }
    }
    long body = sci ? pf_sci_len(&r, prec, sp->alt) : pf_fixed_len(&r, prec, sp->alt);
    long after = pf_open(o, sp, pre, pl, 0, body, 1);
    if (sci) {
        pf_sci(o, &r, prec, sp->alt, upper);
    } else {
        pf_fixed(o, &r, prec, sp->alt);
    }
    pf_rep(o, ' ', after);
}

/* ----- the format loop ----- */

/* Length modifiers. */
enum { PF_NONE, PF_HH, PF_H, PF_L, PF_LL, PF_Z, PF_J, PF_T, PF_BIGL };

static int pf_format(struct pf_sink *o, const char *f, __builtin_va_list ap) {
    while (*f) {
        if (*f != '%') {
            pf_put(o, *f++);
            continue;
        }
        f++;
        struct pf_spec sp = {0, 0, 0, 0, 0, 0, -1, 0};
        for (;; f++) {
            if (*f == '-') {
                sp.left = 1;
            } else if (*f == '+') {
                sp.plus = 1;
            } else if (*f == ' ') {
                sp.space = 1;
            } else if (*f == '#') {
                sp.alt = 1;
            } else if (*f == '0') {
                sp.zero = 1;
            } else {
                break;
            }
        }
        if (*f == '*') {
            int w = __builtin_va_arg(ap, int);
            if (w < 0) {
                sp.left = 1;
                sp.width = -(long)w;
            } else {
                sp.width = w;
            }
            f++;
        } else {
            while (*f >= '0' && *f <= '9') {
                sp.width = sp.width * 10 + (*f++ - '0');
                if (sp.width > 0x7fffffffL) {
                    return -1;
                }
            }
        }
        if (*f == '.') {
            f++;
            if (*f == '*') {
                int p = __builtin_va_arg(ap, int);
                sp.prec = p < 0 ? -1 : p;
                f++;
            } else {
                sp.prec = 0;
                while (*f >= '0' && *f <= '9') {
                    sp.prec = sp.prec * 10 + (*f++ - '0');
                    if (sp.prec > 0x7fffffffL) {
                        return -1;
                    }
                }
            }
        }
        int len = PF_NONE;
        if (*f == 'h') {
            len = f[1] == 'h' ? PF_HH : PF_H;
            f += len == PF_HH ? 2 : 1;
        } else if (*f == 'l') {
            len = f[1] == 'l' ? PF_LL : PF_L;
            f += len == PF_LL ? 2 : 1;
        } else if (*f == 'z') {
            len = PF_Z;
            f++;
        } else if (*f == 'j') {
            len = PF_J;
            f++;
        } else if (*f == 't') {
            len = PF_T;
            f++;
        } else if (*f == 'L' || *f == 'q') {
            len = PF_BIGL;
            f++;
        }
        sp.conv = *f;
        if (*f) {
            f++;
        }
        switch (sp.conv) {
        case 'd':
        case 'i': {
            long v;
            if (len == PF_NONE || len == PF_HH || len == PF_H) {
                int iv = __builtin_va_arg(ap, int);
                v = len == PF_HH ? (signed char)iv : len == PF_H ? (short)iv : iv;
            } else {
                v = __builtin_va_arg(ap, long);
            }
            pf_u64 mag = v < 0 ? 0 - (pf_u64)v : (pf_u64)v;
            pf_int(o, &sp, mag, pf_sign(&sp, v < 0), 10, 0, 0);
            break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            pf_u64 v;
            if (len == PF_NONE || len == PF_HH || len == PF_H) {
                unsigned iv = __builtin_va_arg(ap, unsigned);
                v = len == PF_HH ? (unsigned char)iv : len == PF_H ? (unsigned short)iv : iv;
            } else {
                v = __builtin_va_arg(ap, unsigned long);
            }
            int base = sp.conv == 'u' ? 10 : sp.conv == 'o' ? 8 : 16;
            pf_int(o, &sp, v, 0, base, sp.conv == 'X', base == 16 && sp.alt);
            break;
        }
        case 'p': {
            void *p = __builtin_va_arg(ap, void *);
            if (p == 0) {
                long after = pf_open(o, &sp, pf_lower, 0, 0, 5, 0);
                pf_str(o, pf_words[4], 5);
                pf_rep(o, ' ', after);
            } else {
                pf_int(o, &sp, (pf_u64)p, pf_sign(&sp, 0), 16, 0, 1);
            }
            break;
        }
        case 'c': {
            if (len != PF_NONE) {
                return -1;
            }
            char c = (char)__builtin_va_arg(ap, int);
            long after = pf_open(o, &sp, pf_lower, 0, 0, 1, 0);
            pf_put(o, c);
            pf_rep(o, ' ', after);
            break;
        }
        case 's': {
            if (len != PF_NONE) {
                return -1;
            }
            const char *s = __builtin_va_arg(ap, const char *);
            if (s == 0) {
                s = pf_words[5] + (sp.prec < 0 || sp.prec >= 6 ? 0 : 6);
            }
            long n = 0;
            while ((sp.prec < 0 || n < sp.prec) && s[n]) {
                n++;
            }
            long after = pf_open(o, &sp, pf_lower, 0, 0, n, 0);
            pf_str(o, s, n);
            pf_rep(o, ' ', after);
            break;
        }
        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            if (len == PF_BIGL) {
                return -1;
            }
            pf_float(o, &sp, __builtin_va_arg(ap, double));
            break;
        }
        case 'n': {
            void *p = __builtin_va_arg(ap, void *);
            unsigned long c = o->len;
            if (len == PF_HH) {
                *(signed char *)p = (signed char)c;
            } else if (len == PF_H) {
                *(short *)p = (short)c;
            } else if (len == PF_NONE) {
                *(int *)p = (int)c;
            } else {
                *(long *)p = (long)c;
            }
            break;
        }
        case '%':
            pf_put(o, '%');
            break;
        default:
            /* an unknown or missing conversion: C leaves it undefined; stop */
            return -1;
        }
    }
    return 0;
}

static int pf_finish(struct pf_sink *o, int status) {
    if (o->cap > 0) {
        o->s[o->len < o->cap ? o->len : o->cap - 1] = 0;
    }
    if (status < 0 || o->len > 0x7fffffffUL) {
        return -1;
    }
    return (int)o->len;
}

int __ompcc_vsnprintf(char *restrict s, unsigned long n, const char *restrict fmt,
                      __builtin_va_list ap) {
    struct pf_sink o = {s, n, 0};
    return pf_finish(&o, pf_format(&o, fmt, ap));
}

int __ompcc_snprintf(char *restrict s, unsigned long n, const char *restrict fmt, ...) {
    __builtin_va_list ap;
    __builtin_va_start(ap, fmt);
    int r = __ompcc_vsnprintf(s, n, fmt, ap);
    __builtin_va_end(ap);
    return r;
}

int __ompcc_vsprintf(char *restrict s, const char *restrict fmt, __builtin_va_list ap) {
    /* no bound: as large as the address space allows */
    return __ompcc_vsnprintf(s, ~0UL >> 1, fmt, ap);
}

int __ompcc_sprintf(char *restrict s, const char *restrict fmt, ...) {
    __builtin_va_list ap;
    __builtin_va_start(ap, fmt);
    int r = __ompcc_vsprintf(s, fmt, ap);
    __builtin_va_end(ap);
    return r;
}
