/* sin, cos, tan of the ompcc device math library.
 *
 * Argument reduction x = n pi/2 + r, |r| <= pi/4, r carried as a double-double:
 *  - |x| < 2^28: Cody-Waite with pi/2 split in three doubles; the first step is exact with
 *    fma and the second is kept exact with two_prod/two_sum, so tiny r keep full accuracy.
 *  - larger |x|: Payne-Hanek. x = M 2^E (M a 53-bit integer); only a 192-bit window of the
 *    bits of 2/pi matters (earlier bits give multiples of 4, later ones stay below the
 *    garbage bits), multiplied by M in 64-bit integer pieces; the 128-bit fraction, good to
 *    about 136 bits, is converted to a double-double and multiplied by pi/2.
 * Kernels: Taylor series of sin to r^19 and cos to r^20 on |r| <= pi/4 (truncation below
 * 2^-58 relative), evaluated as double-doubles; tan = sin/cos by double-double division.
 * Float versions evaluate in double and round once. */
#include "ompcc_math.h"
#include "internal.h"

#define OMPCC_PIO4 0x1.921fb54442d18p-1
#define OMPCC_INV_PIO2 0x1.45f306dc9c883p-1

/* sin(r + rl) as hi + *lo, |r| <= pi/4 + small */
static double ompcc_sin_k(double r, double rl, double *lo) {
    double z = r * r;
    const double *c = ompcc_sin_c;
    double p = c[8];
    for (int i = 7; i >= 0; i--) {
        p = __builtin_fma(p, z, c[i]);
    }
    double t = (r * z) * p + rl * (1.0 - 0.5 * z);
    return ompcc_fast_two_sum(r, t, lo);
}

/* cos(r + rl) as hi + *lo, |r| <= pi/4 + small */
static double ompcc_cos_k(double r, double rl, double *lo) {
    double zl;
    double zh = ompcc_two_prod(r, r, &zl);
    zl += 2.0 * r * rl;
    const double *c = ompcc_cos_c;
    double p = c[8];
    for (int i = 7; i >= 0; i--) {
        p = __builtin_fma(p, zh, c[i]);
    }
    double hz = 0.5 * zh;
    double wl;
    double w = ompcc_fast_two_sum(1.0, -hz, &wl);
    double t = (wl - 0.5 * zl) + (zh * zh) * p;
    return ompcc_fast_two_sum(w, t, lo);
}

/* 64x64 -> 128-bit product: returns the high half, *lo the low half */
static ompcc_u64 ompcc_mul64(ompcc_u64 a, ompcc_u64 b, ompcc_u64 *lo) {
    ompcc_u64 a0 = a & 0xffffffffULL, a1 = a >> 32;
    ompcc_u64 b0 = b & 0xffffffffULL, b1 = b >> 32;
    ompcc_u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    ompcc_u64 mid = (p00 >> 32) + (p01 & 0xffffffffULL) + (p10 & 0xffffffffULL);
    *lo = (mid << 32) | (p00 & 0xffffffffULL);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* 64 bits of 2/pi starting at bit index pos (bit 1 is the first after the binary point;
 * bits at index <= 0, the integer part, are zero) */
static ompcc_u64 ompcc_tpi_bits(int pos) {
    int off = pos - 1;
    if (off < 0) {
        return off <= -64 ? 0 : ompcc_two_over_pi[0] >> (-off);
    }
    int w = off >> 6;
    int sh = off & 63;
    ompcc_u64 v = ompcc_two_over_pi[w] << sh;
    if (sh != 0) {
        v |= ompcc_two_over_pi[w + 1] >> (64 - sh);
    }
    return v;
}

static int ompcc_clz64(ompcc_u64 v) {
    int n = 0;
    if (v == 0) {
        return 64;
    }
    if (!(v >> 32)) {
        n += 32;
        v <<= 32;
    }
    if (!(v >> 48)) {
        n += 16;
        v <<= 16;
    }
    if (!(v >> 56)) {
        n += 8;
        v <<= 8;
    }
    if (!(v >> 60)) {
        n += 4;
        v <<= 4;
    }
    if (!(v >> 62)) {
        n += 2;
        v <<= 2;
    }
    if (!(v >> 63)) {
        n += 1;
    }
    return n;
}

/* Payne-Hanek for finite a >= 2^28: a = n pi/2 + (r + *rl), returns n mod 4 */
static int ompcc_rem_pio2_large(double a, double *r, double *rl) {
    ompcc_u64 u = ompcc_bits(a);
    int e = (int)(u >> 52) - 1075;
    ompcc_u64 m = (u & 0xfffffffffffffULL) | (1ULL << 52);
    int i0 = e - 1;
    ompcc_u64 g2 = ompcc_tpi_bits(i0);
    ompcc_u64 g1 = ompcc_tpi_bits(i0 + 64);
    ompcc_u64 g0 = ompcc_tpi_bits(i0 + 128);
    ompcc_u64 l0, l1;
    ompcc_u64 h0 = ompcc_mul64(m, g0, &l0);
    ompcc_u64 h1 = ompcc_mul64(m, g1, &l1);
    ompcc_u64 l2 = m * g2; /* the high half only affects multiples of 4 */
    /* product P = p3:p2:p1:p0, value x 2/pi = P / 2^190 (mod 4) */
    ompcc_u64 p0 = l0;
    ompcc_u64 p1 = h0 + l1;
    ompcc_u64 c1 = p1 < h0;
    ompcc_u64 p2 = h1 + l2;
    p2 += c1; /* carries out of p2 only affect multiples of 4 */
    int q = (int)((p2 >> 62) & 3);
    ompcc_u64 fh = (p2 << 2) | (p1 >> 62);
    ompcc_u64 fl = (p1 << 2) | (p0 >> 62);
    int neg = 0;
    if (fh >> 63) { /* fraction >= 1/2: round n up, r = -(1 - fraction) */
        q += 1;
        neg = 1;
        fh = ~fh;
        fl = ~fl + 1;
        if (fl == 0) {
            fh += 1;
        }
    }
    int shift = 0;
    if (fh == 0) {
        fh = fl;
        fl = 0;
        shift = 64;
        if (fh == 0) { /* cannot happen (2/pi is irrational); keeps the shifts below defined */
            *r = 0.0;
            *rl = 0.0;
            return q & 3;
        }
    }
    int lz = ompcc_clz64(fh);
    ompcc_u64 A = lz ? (fh << lz) | (fl >> (64 - lz)) : fh;
    ompcc_u64 B = fl << lz;
    shift += lz;
    double dh = (double)(A >> 11) * ompcc_pow2(-53 - shift);
    double dl = (double)(((A & 0x7ffULL) << 42) | (B >> 22)) * ompcc_pow2(-106 - shift);
    double e2;
    double h = ompcc_two_prod(dh, OMPCC_PIO2_HI, &e2);
    e2 += dh * OMPCC_PIO2_LO + dl * OMPCC_PIO2_HI;
    h = ompcc_fast_two_sum(h, e2, rl);
    if (neg) {
        h = -h;
        *rl = -*rl;
    }
    *r = h;
    return q & 3;
}

/* x = n pi/2 + (r + *rl) with |r| <= pi/4 (barely more), for finite |x| > pi/4;
 * returns n mod 4 */
static int ompcc_rem_pio2(double x, double *r, double *rl) {
    double a = __builtin_fabs(x);
    int q;
    if (a < 0x1p28) {
        double n = __builtin_rint(a * OMPCC_INV_PIO2);
        double t1 = __builtin_fma(-n, OMPCC_PIO2_1, a); /* exact */
        double pl;
        double ph = ompcc_two_prod(n, OMPCC_PIO2_2, &pl);
        double tl;
        double th = ompcc_two_sum(t1, -ph, &tl);
        double low = (tl - pl) - n * OMPCC_PIO2_3;
        *r = ompcc_fast_two_sum(th, low, rl);
        q = (int)n & 3;
    } else {
        q = ompcc_rem_pio2_large(a, r, rl);
    }
    if (x < 0.0) {
        *r = -*r;
        *rl = -*rl;
        q = (4 - q) & 3;
    }
    return q;
}

double __ompcc_i_sinpi(double r, double *lo) {
    double a = __builtin_fabs(r);
    double pl, ph, h;
    if (a <= 0.25) {
        ph = ompcc_two_prod(r, OMPCC_PI_HI, &pl);
        pl += r * OMPCC_PI_LO;
        return ompcc_sin_k(ph, pl, lo);
    }
    double t = 0.5 - a; /* exact; sin(pi a) = cos(pi (1/2 - a)) */
    ph = ompcc_two_prod(t, OMPCC_PI_HI, &pl);
    pl += t * OMPCC_PI_LO;
    h = ompcc_cos_k(ph, pl, lo);
    if (r < 0.0) {
        *lo = -*lo;
        return -h;
    }
    return h;
}

double __ompcc_sin(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a == OMPCC_INF) {
        return OMPCC_NAN;
    }
    if (a < 0x1p-26) {
        return x;
    }
    double r = x, rl = 0.0, lo, h;
    int q = 0;
    if (a > OMPCC_PIO4) {
        q = ompcc_rem_pio2(x, &r, &rl);
    }
    if (q & 1) {
        h = ompcc_cos_k(r, rl, &lo);
    } else {
        h = ompcc_sin_k(r, rl, &lo);
    }
    h += lo;
    return (q & 2) ? -h : h;
}

double __ompcc_cos(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a == OMPCC_INF) {
        return OMPCC_NAN;
    }
    if (a < 0x1p-27) {
        return 1.0;
    }
    double r = x, rl = 0.0, lo, h;
    int q = 0;
    if (a > OMPCC_PIO4) {
        q = ompcc_rem_pio2(x, &r, &rl);
    }
    q = (q + 1) & 3; /* cos(x) = sin(x + pi/2) */
    if (q & 1) {
        h = ompcc_cos_k(r, rl, &lo);
    } else {
        h = ompcc_sin_k(r, rl, &lo);
    }
    h += lo;
    return (q & 2) ? -h : h;
}

double __ompcc_tan(double x) {
    double a = __builtin_fabs(x);
    if (ompcc_isnan(x)) {
        return x + x;
    }
    if (a == OMPCC_INF) {
        return OMPCC_NAN;
    }
    if (a < 0x1p-27) {
        return x;
    }
    double r = x, rl = 0.0;
    int q = 0;
    if (a > OMPCC_PIO4) {
        q = ompcc_rem_pio2(x, &r, &rl);
    }
    double sl, cl, tl, t;
    double sh = ompcc_sin_k(r, rl, &sl);
    double ch = ompcc_cos_k(r, rl, &cl);
    if (q & 1) {
        t = -ompcc_dd_div(ch, cl, sh, sl, &tl);
        tl = -tl;
    } else {
        t = ompcc_dd_div(sh, sl, ch, cl, &tl);
    }
    return t + tl;
}

float __ompcc_sinf(float x) { return (float)__ompcc_sin(x); }
float __ompcc_cosf(float x) { return (float)__ompcc_cos(x); }
float __ompcc_tanf(float x) { return (float)__ompcc_tan(x); }
