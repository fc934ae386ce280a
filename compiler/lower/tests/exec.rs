//! C snippets lowered to IR, verified, optimized at -O1, -O2 and -O3 and verified again, then
//! run in the IR interpreter at -O0 and each level; the results must equal what the host C compiler's build
//! of the same snippet prints.

mod common;
use common::*;

/// (name, source defining `test`, result is floating).
const CASES: &[(&str, &str, bool)] = &[
    (
        "omp_simd_flush",
        r#"
long long test(void) {
    double a[64], s = 0; long m = 0;
    #pragma omp simd
    for (int i = 0; i < 64; i++) a[i] = i * 0.25;
    #pragma omp simd reduction(+:s) safelen(8) aligned(a:8)
    for (int i = 0; i < 64; i++) s += a[i];
    #pragma omp simd reduction(max:m) collapse(2)
    for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) m = m > i * j ? m : i * j;
    #pragma omp flush
    return (long long)(s * 4) + m * 100000;
}"#,
        false,
    ),
    (
        "omp_atomic",
        r#"
int hits; double total;
static void bump(int *p, double *t, double v) {
    #pragma omp atomic
    (*p)++;
    #pragma omp atomic update
    *t += v;
    #pragma omp atomic
    *p |= 16;
}
long long test(void) {
    long local = 5; int cap, rd;
    for (int i = 0; i < 4; i++) bump(&hits, &total, i * 0.5);
    #pragma omp atomic
    local -= 2;
    #pragma omp atomic capture
    cap = hits++;
    #pragma omp atomic capture
    rd = --hits;
    #pragma omp atomic write
    hits = cap + 100;
    #pragma omp atomic read
    rd = hits;
    return rd * 100000LL + cap * 1000 + (long long)(total * 10) + local;
}"#,
        false,
    ),
    (
        "omp_atomic_compare_capture_forms",
        r#"
static int mx = -5, owner = -1, xi = 6, xo, xn;
static unsigned um = 100;
static long lv = 7, lold;
static float fm = 1.0f;
static double dz = 0.0, dd = 10.0, dn;
long long test(void) {
    long long acc = 0;
    int vals[6] = {3, -9, 120, 120, 4, 200};
    for (int i = 0; i < 6; i++) {
        int old, r;
        #pragma omp atomic compare
        if (mx < vals[i]) { mx = vals[i]; }
        #pragma omp atomic compare capture
        { old = owner; owner = owner == -1 ? i : owner; }
        #pragma omp atomic compare capture
        { r = owner == i; if (r) { owner = i + 10; } }
        #pragma omp atomic compare
        um = (unsigned)vals[i] < um ? (unsigned)vals[i] : um;
        acc = acc * 3 + old + r;
    }
    float fo, nan = __builtin_nanf("");
    #pragma omp atomic compare capture
    { fo = fm; if (fm < nan) { fm = nan; } }
    #pragma omp atomic compare
    if (dz > -0.0) { dz = -0.0; }
    double seen = 5, seen2 = 6;
    #pragma omp atomic compare capture
    if (dz == -0.0) { dz = 2.5; } else { seen = dz; }
    #pragma omp atomic compare capture
    if (dz == 1.0) { dz = 3.0; } else { seen2 = dz; }
    #pragma omp atomic capture
    { lold = lv; lv = 40; }
    #pragma omp atomic capture
    { xo = xi; xi *= 7; }
    #pragma omp atomic capture
    { xi >>= 1; xn = xi; }
    #pragma omp atomic capture
    dn = dd = 1.0 / dd;
    #pragma omp atomic capture seq_cst
    xo = xi--;
    return acc + mx * 1000LL + um + lv * 7 + lold + (fm == 1.0f) * 100 + fo * 3
        + (long long)(dz * 10) + (long long)(seen * 100) + (long long)(seen2 * 1000)
        + xo * 13 + xn * 17 + xi + (long long)(dn * 1000) + owner * 100000;
}"#,
        false,
    ),
    (
        "fp_classification_builtins",
        r#"
long long test(void) {
    double ds[8] = {0.0, -0.0, 1.5, -2.2250738585072014e-308, 4.9e-324, -1e-310,
                    __builtin_inf(), __builtin_nan("")};
    float fs[6] = {0.0f, 1e-40f, -3.0f, -__builtin_inff(), __builtin_nanf(""), -0.0f};
    unsigned long long h = 0;
    for (int i = 0; i < 8; i++) {
        double x = i == 7 ? ds[i] : -ds[i];
        h = h * 31 + __builtin_fpclassify(10, 11, 12, 13, 14, x);
        h = h * 31 + __builtin_isinf_sign(x) + 1;
        h = h * 31 + (__builtin_signbit(x) != 0) + 2 * __builtin_isnan(x);
        h = h * 31 + __builtin_isfinite(x) + 2 * __builtin_isnormal(x) + 4 * __builtin_isinf(x);
        h = h * 31 + __builtin_isless(x, 1.0) + 2 * __builtin_isunordered(x, 0.5)
            + 4 * __builtin_islessgreater(x, 0.0) + 8 * __builtin_isgreaterequal(x, ds[2]);
    }
    for (int i = 0; i < 6; i++) {
        float x = fs[i];
        h = h * 31 + __builtin_fpclassify(10, 11, 12, 13, 14, x);
        h = h * 31 + __builtin_isinf_sign(x) + 1;
        h = h * 31 + (__builtin_signbit(x) != 0) + 2 * __builtin_isnan(x);
        h = h * 31 + __builtin_isfinite(x) + 2 * __builtin_isnormal(x);
        h = h * 31 + __builtin_isgreater(x, -1.0f) + 2 * __builtin_islessequal(x, 0.0);
    }
    return (long long)(h >> 1);
}"#,
        false,
    ),
    (
        "switch_table",
        r#"
static int dense(long x) {
    switch (x) {
    case -2: return 7; case -1: return 8; case 0: return 9; case 2: return 10;
    case 3: case 4: return 11; case 6: return 12; case 20 ... 22: return 13;
    }
    return -1;
}
static int bytes(unsigned char c) {
    int r = 0;
    switch (c) { case 250: r = 1; case 251: r += 2; break; case 252: r = 3; break; case 254: r = 4; break; default: r = 5; }
    return r;
}
long long test(void) {
    unsigned long long s = 0;
    for (long x = -5; x < 25; x++) s = s * 5 + dense(x) + 1;
    for (int c = 245; c < 260; c++) s = s * 3 + bytes((unsigned char)c);
    return (long long)s;
}"#,
        false,
    ),
    (
        "char_constants",
        r#"
long long test(void) {
    int k = '\xff'; char c = '\x80'; unsigned char u = '\xfe'; int multi = 'ab'; int nl = '\n';
    unsigned short w = u'\xffff'; int wide = L'\x41';
    return k * 1000000000LL + c * 1000000 + u * 1000 + multi + nl + w + wide;
}"#,
        false,
    ),
    (
        "big_zero_init",
        r#"
long long test(void) {
    double a[700] = {1.5, [650] = 2.5}; int b[300] = {0}; char c[1001] = "x";
    long long s = 0;
    for (int i = 0; i < 700; i++) s += (long long)(a[i] * 2) * (i + 1);
    for (int i = 0; i < 300; i++) s += b[i];
    for (int i = 0; i < 1001; i++) s += c[i] * (i + 1);
    return s;
}"#,
        false,
    ),
    (
        "packed_anonymous_members",
        r#"
struct __attribute__((packed)) P { char a; int b; short c; unsigned d : 5; unsigned e : 9; };
struct __attribute__((packed, aligned(2))) Q { char a; double b; };
struct A { int kind; union { int i; float f; struct { short lo, hi; }; }; };
long long test(void) {
    struct P p = { 1, 0x12345678, -3, 17, 300 };
    struct Q q = { 'q', 2.5 };
    struct A a; a.kind = 2; a.i = 0; a.lo = 7; a.hi = -1;
    p.e += 5; p.b >>= 4;
    return p.b + p.c * 10 + p.d * 100 + p.e * 1000 + sizeof(struct P) * 1000000
        + sizeof(struct Q) * 100000000LL + (long long)(q.b * 4) + a.i + a.lo;
}"#,
        false,
    ),
    (
        "int_widths",
        r#"
long long test(void) {
    signed char c = 100; c = c + 100;            /* wraps to -56 */
    unsigned char uc = 200; uc += 100;           /* 44 */
    short s = 30000; s += 30000;                 /* wraps */
    unsigned short us = 65535; us++;             /* 0 */
    int i = 2147483647; unsigned u = i; u += 1;  /* 2^31 */
    long l = -5; unsigned long ul = l;           /* huge */
    return c * 1000000LL + uc * 10000 + s + us + (long long)(u >> 16) + (long long)(ul >> 60);
}"#,
        false,
    ),
    (
        "signed_unsigned_ops",
        r#"
long long test(void) {
    int a = -7, b = 2; unsigned ua = (unsigned)a, ub = 2;
    long long r = 0;
    r += a / b; r *= 10; r += a % b; r *= 10;
    r += (long long)(ua / ub) % 1000; r *= 10; r += ua % ub;
    r += (a >> 1) * 100; r += (long long)(ua >> 28) * 7;
    r += (a < 1u) ? 1000 : 2000;                 /* -7 converts to unsigned: false */
    r += (a < 1) ? 10000 : 20000;
    return r;
}"#,
        false,
    ),
    (
        "bool_normalise",
        r#"
long long test(void) {
    _Bool b = 42; _Bool c = 0.5; _Bool d = 0; int *p = 0; _Bool e = p; int x = 3; _Bool f = &x;
    b++; d--;
    return b * 1000 + c * 100 + d * 10 + e + f * 7 + (_Bool)256;
}"#,
        false,
    ),
    (
        "float_conversions",
        r#"
double test(void) {
    float f = 1.5f; double d = f * 3; int i = (int)(d * 2.7); unsigned u = 3000000000u;
    double du = u; float ff = (float)d / 7; long long big = -9007199254740993LL; double db = big;
    short s = (short)-2.9; unsigned char uc = (unsigned char)200.7;
    return d + i + du / 1e9 + ff + db / 1e15 + s + uc;
}"#,
        true,
    ),
    (
        "pointer_arith",
        r#"
long long test(void) {
    int a[10]; for (int i = 0; i < 10; i++) a[i] = i * i;
    int *p = a + 3, *q = &a[8];
    long d = q - p; p += 2; q--; int *r = 1 + p;
    char *cp = (char *)q; cp -= 4;
    return d * 10000 + *p * 100 + *q + *r + *(int *)cp + (p < q) + 3[a];
}"#,
        false,
    ),
    (
        "arrays_2d",
        r#"
long long test(void) {
    int m[3][4]; long long s = 0;
    for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) m[i][j] = i * 10 + j;
    int (*row)[4] = m + 1;
    for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) s = s * 3 + m[i][j];
    return s + row[1][2] + sizeof m + sizeof m[0];
}"#,
        false,
    ),
    (
        "pointer_to_vla",
        r#"
static double sum(int n, int m, double (*a)[m]) {
    double s = 0;
    for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) s += a[i][j] * (i + 1);
    return s + sizeof(*a);
}
static void fill(int n, int m, double a[n][m]) {
    for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) a[i][j] = i * m + j;
}
double test(void) { double buf[3][5]; fill(3, 5, buf); return sum(3, 5, buf); }
"#,
        true,
    ),
    (
        "structs_by_value",
        r#"
struct P { char tag; double x; int y; };
struct Q { struct P a, b; short k[3]; };
static struct P mk(char t, double x, int y) { struct P p; p.tag = t; p.x = x; p.y = y; return p; }
static struct Q swap(struct Q q) { struct P t = q.a; q.a = q.b; q.b = t; q.k[1] += 5; return q; }
static int gety(const struct P *p) { return p->y; }
long long test(void) {
    struct Q q; q.a = mk('a', 1.5, 7); q.b = mk('b', 2.5, 9); q.k[0] = 1; q.k[1] = 2; q.k[2] = 3;
    struct Q r = swap(q);
    struct P big[20]; for (int i = 0; i < 20; i++) big[i] = mk('z', i, i);
    struct P copy[20]; struct { struct P v[20]; } w, w2; for (int i = 0; i < 20; i++) w.v[i] = big[i];
    w2 = w;
    return r.a.tag * 1000 + gety(&r.a) * 100 + (long long)(r.b.x * 10) + r.k[1] + q.k[1]
        + w2.v[19].y + sizeof(struct Q) + (copy[0].tag = 1);
}"#,
        false,
    ),
    (
        "unions",
        r#"
union U { float f; unsigned u; unsigned char b[4]; };
long long test(void) {
    union U x; x.f = 1.0f; long long r = x.u; x.b[3] = 0x40; r += (long long)(x.f * 100);
    union U y = x; y.u ^= 1; return r + (y.u & 0xff) + sizeof(union U);
}"#,
        false,
    ),
    (
        "bitfields",
        r#"
struct B { unsigned a : 3; int b : 5; unsigned c : 12; _Bool d : 1; int e : 7; unsigned long long f : 40; };
long long test(void) {
    struct B s = {0};
    s.a = 9; s.b = -3; s.c = 4095; s.d = 1; s.e = 63; s.f = 0xfffffffffffULL;
    s.b += 20;      /* 17 wraps to -15 */
    s.c++; s.e *= 2; int old = s.a++;
    long long r = s.a * 1000000LL + s.b * 10000 + s.c * 100 + s.d * 10 + s.e + old;
    return r * 7 + (long long)(s.f >> 20) + (s.a = 12) + sizeof s;
}"#,
        false,
    ),
    (
        "loops",
        r#"
long long test(void) {
    long long s = 0; int i = 0;
    while (i < 100) { i++; if (i % 3 == 0) continue; if (i > 50) break; s += i; }
    do { s *= 2; i -= 20; } while (i > 0);
    for (int j = 0;; j++) { if (j == 5) break; for (int k = 0; k < j; k++) { if (k == 2) continue; s += k; } }
    for (;;) { s++; if (s % 7 == 0) break; }
    return s;
}"#,
        false,
    ),
    (
        "switch_stmt",
        r#"
static int classify(int x) {
    int r = 0;
    switch (x) {
    case 0: r = 1;
    case 1: r += 2; break;
    case 5 ... 9: r = 50; break;
    case -3: { r = -3; break; }
    default: r = 99;
    case 100: r += 1000;
    }
    return r;
}
static int nodefault(unsigned char c) { switch (c) { case 'a': return 1; case 255: return 2; } return 0; }
long long test(void) {
    long long s = 0;
    for (int x = -4; x < 12; x++) s = s * 3 + classify(x);
    return s + classify(100) + nodefault('a') * 10 + nodefault(255) * 100 + nodefault(3);
}"#,
        false,
    ),
    (
        "goto_labels",
        r#"
long long test(void) {
    int i = 0; long long s = 0;
again:
    s += i;
    if (++i < 10) goto again;
    goto skip;
    s = -1;
skip:
    if (s > 10) goto out;
    s = 0;
out:
    return s;
}"#,
        false,
    ),
    (
        "short_circuit",
        r#"
static int calls;
static int t(int v) { calls++; return v; }
long long test(void) {
    int r = 0;
    if (t(0) && t(1)) r += 1;
    if (t(1) || t(0)) r += 10;
    if (!(t(0) || t(0)) && t(2)) r += 100;
    int v = t(3) && t(0); int w = t(0) || t(5);
    int *p = 0; if (p && *p) r = -1;
    return r * 100 + calls * 10 + v + w;
}"#,
        false,
    ),
    (
        "conditional",
        r#"
struct S { int a, b; };
long long test(void) {
    int x = 5; double d = x > 3 ? 1.5 : 2; long l = x < 3 ? x : -1L;
    struct S s1 = {1, 2}, s2 = {3, 4}; struct S s3 = x ? s2 : s1;
    int g = x ?: 7; int z = 0; int h = z ?: 9;
    x > 4 ? (void)(x = 10) : (void)0;
    return (long long)(d * 10) + l * 100 + s3.b * 1000 + g + h * 10000 + x * 100000;
}"#,
        false,
    ),
    (
        "compound_assign",
        r#"
long long test(void) {
    int i = 100; unsigned u = 7; char c = 10; double d = 2; float f = 3; long l = 1;
    i -= 3; i *= 2; i /= 3; i %= 50; i <<= 2; i >>= 1; i &= 0xff; i |= 0x100; i ^= 3;
    u -= 10; u >>= 28; c *= 30; c += 0.7; d /= 4; d += i; f *= d; l <<= 40; l += c;
    int a[4] = {1, 2, 3, 4}; int *p = a; p += 3; p -= 1;
    return i + u * 1000 + c * 10 + (long long)f + l + *p * 100000;
}"#,
        false,
    ),
    (
        "inc_dec",
        r#"
long long test(void) {
    int i = 5; double d = 1.5; float f = -0.5f; char c = 127; unsigned char uc = 0;
    long a[3] = {10, 20, 30}; long *p = a;
    int r = i++ + ++i; d++; --f; c++; uc--;
    long v = *p++; v += *++p; p--;
    return r * 1000000 + (long long)(d * 10) * 10000 + (long long)(f * 10) + c * 100 + uc + v + *p;
}"#,
        false,
    ),
    (
        "casts_comma_sizeof",
        r#"
long long test(void) {
    int x = (1, 2, 3); long y = (x++, x * 2);
    double d = (double)7 / 2; int t = (int)d; unsigned char b = (unsigned char)-1;
    void *vp = &x; int *ip = (int *)vp; unsigned long addrdiff = (unsigned long)(ip + 2) - (unsigned long)ip;
    (void)y;
    return x + y * 10 + t * 100 + b * 1000 + addrdiff * 1000000 + sizeof(long double *) + sizeof(short[7]);
}"#,
        false,
    ),
    (
        "vla_sizeof",
        r#"
static long sz(int n) { double (*p)[n]; typedef int row[n + 1]; return sizeof(*p) * 100 + sizeof(row); }
long long test(void) { return sz(3) + sz(10) * 100000; }
"#,
        false,
    ),
    (
        "compound_literals",
        r#"
struct P { int x, y; };
static int dot(struct P a, struct P b) { return a.x * b.x + a.y * b.y; }
long long test(void) {
    int *a = (int[]){3, 4, 5};
    struct P p = (struct P){.y = 7};
    return dot((struct P){1, 2}, (struct P){3, 4}) * 1000 + a[2] * 10 + p.x + p.y;
}"#,
        false,
    ),
    (
        "initializers",
        r#"
struct In { char c; short s[3]; };
struct Out { int a; struct In in[2]; double d; int tail[4]; };
long long test(void) {
    struct Out o = { 1, { { 'x', {1, 2} }, [1].s[2] = 9, [1].c = 'y' }, .d = 2.5, .tail = { [2] = 7, 8 } };
    int arr[10] = { [3] = 3, [7] = 7, 8 };
    char str[8] = "hi";
    char s2[] = "hello";
    int zero[5] = {0};
    long long r = o.a + o.in[0].c + o.in[0].s[1] * 10 + o.in[0].s[2] * 100 + o.in[1].s[2] * 1000
        + o.in[1].c + (long long)(o.d * 2) + o.tail[2] * 10000 + o.tail[3] * 100000 + o.tail[0];
    return r + arr[3] + arr[7] + arr[8] * 3 + str[1] + str[5] + sizeof s2 + s2[4] + zero[4];
}"#,
        false,
    ),
    (
        "recursion",
        r#"
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) { if (m == 0) return n + 1; if (n == 0) return ack(m - 1, 1); return ack(m - 1, ack(m, n - 1)); }
static int even(int n);
static int odd(int n) { return n == 0 ? 0 : even(n - 1); }
static int even(int n) { return n == 0 ? 1 : odd(n - 1); }
long long test(void) { return fib(15) * 1000 + ack(2, 3) * 10 + even(10) + odd(7); }
"#,
        false,
    ),
    (
        "static_locals_globals",
        r#"
int counter_base = 40;
static int table[5] = {1, 1, 2, 3, 5};
static const char *unused_name;
struct G { int a; double b; char name[6]; } g = { 7, 0.25, "gpu" };
static int next(void) { static int n = 2; static int calls; calls++; n += calls; return n + counter_base; }
long long test(void) {
    int a = next(); int b = next(); int c = next();
    table[4] += a; g.a++;
    return a + b * 100 + c * 10000 + table[4] * 1000000LL + g.a + (long long)(g.b * 8) + g.name[1]
        + (unused_name == 0);
}"#,
        false,
    ),
    (
        "strings",
        r#"
static int len(const char *s) { int n = 0; while (*s++) n++; return n; }
long long test(void) {
    const char *s = "device code";
    char buf[16]; int i = 0;
    for (const char *p = s; *p; p++) buf[i++] = *p == ' ' ? '_' : *p;
    buf[i] = 0;
    return len(s) * 1000 + len(buf) + buf[6] + "abc"[1] + sizeof("xyz");
}"#,
        false,
    ),
    (
        "stmt_expr_enum",
        r#"
enum Color { RED, GREEN = 5, BLUE };
long long test(void) {
    enum Color c = BLUE; int x = 3, y = 8;
    int m = ({ __typeof__(x++) _a = (x++); __typeof__(y) _b = (y); _a > _b ? _a : _b; });
    int z = ({ int t = 4; t * t; });
    return c * 1000 + m * 100 + z + x + GREEN * 10000 + sizeof(enum Color);
}"#,
        false,
    ),
    (
        "float_compare_nan",
        r#"
long long test(void) {
    double z = 0.0; double n = z / z; float f = 1.0f;
    int r = (n != n) + 2 * (n < 1.0) + 4 * (n == n) + 8 * (f > 0.5) + 16 * !n + 32 * (n ? 1 : 0);
    return r + (long long)(-7.9) * 100 + (long long)(unsigned)(3.99f) * 1000;
}"#,
        false,
    ),
    (
        "volatile_and_const",
        r#"
long long test(void) {
    volatile int v = 5; v += 2; const int k = 9; int a[3] = {k, v, 0};
    volatile struct { int x; } s; s.x = 3;
    return a[0] * 100 + a[1] * 10 + s.x;
}"#,
        false,
    ),
    (
        "unsigned_long_mix",
        r#"
long long test(void) {
    unsigned int u = 4000000000u; int i = -1; long l = -1; unsigned long ul = 1;
    long long r = 0;
    r += (u + i) % 1000;                 /* unsigned arithmetic */
    r += (l < u) * 10;                   /* long holds every unsigned int: signed compare */
    r += (ul > (unsigned long)l) * 100;
    r += (i < ul) * 1000;                /* -1 converts to ULONG_MAX: false */
    r += (unsigned short)(i) / 7;
    return r;
}"#,
        false,
    ),
    (
        "bit_builtins",
        r#"
long long test(void) {
    unsigned x = 0x12345678u; unsigned long long y = 0xf0ULL; unsigned short h = 0xabcd;
    return (long long)__builtin_bswap32(x) + __builtin_bswap16(h) + (long long)(__builtin_bswap64(y) >> 56)
        + __builtin_clz(x) * 1000 + __builtin_ctzll(y) * 100 + __builtin_popcount(x) * 10000
        + (long long)__builtin_fabs(-2.5) * 100000;
}"#,
        false,
    ),
    (
        "matmul_kernel_shape",
        r#"
static void matmul(int n, const double *a, const double *b, double *restrict c) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}
double test(void) {
    double a[16], b[16], c[16];
    for (int i = 0; i < 16; i++) { a[i] = i * 0.5; b[i] = 16 - i; }
    matmul(4, a, b, c);
    double t = 0; for (int i = 0; i < 16; i++) t += c[i] * (i + 1);
    return t;
}"#,
        true,
    ),
    (
        "function_pointers",
        r#"
static int add1(int x) { return x + 1; }
static int twice(int x) { return 2 * x; }
typedef int (*op)(int);
static op table[2] = {add1, twice};
static int apply(op f, int x) { return f(x) + (*f)(x); }
long long test(void) {
    op local[2] = {twice, add1};
    long long s = 0;
    for (int i = 0; i < 4; i++)
        s = s * 10 + apply(table[i & 1], i) + apply(local[i & 1], 1) + (table[0] == add1);
    return s;
}"#,
        false,
    ),
    (
        "local_vla",
        r#"
long long test(void) {
    long long total = 0;
    for (int n = 1; n < 40; n++) {
        int a[n];
        for (int i = 0; i < n; i++) a[i] = i * n;
        if (n % 3 == 0) continue;
        for (int i = 0; i < n; i++) total += a[i];
        {
            double b[2 * n];
            b[2 * n - 1] = n;
            total = total % 1000003 * 3 + (long long)b[2 * n - 1] + (long long)sizeof b;
        }
        if (n > 30) break;
    }
    return total;
}"#,
        false,
    ),
    (
        "address_initializers",
        r#"
int vals[4] = {1, 2, 3, 4};
int *p2 = &vals[2];
int *p3 = vals + 3;
const char *msg = "hello";
static int neg(int x) { return -x; }
int (*fp)(int) = neg;
struct E { const char *name; int *slot; } es[2] = {{"ab", &vals[0]}, {"cd", vals + 1}};
int **ps = &es[1].slot;
struct E *lit = &(struct E){"xy", &vals[3]};
long long test(void) {
    static int *self_ref = &vals[1];
    return *p2 * 1000 + *p3 * 100 + msg[1] + fp(5) + es[1].name[1] + *es[1].slot + *self_ref
        + **ps * 10000 + lit->name[0] * 100000 + *lit->slot * 1000000;
}"#,
        false,
    ),
];

#[test]
fn snippets_match_the_host_compiler() {
    let failures: Vec<String> = CASES
        .iter()
        .flat_map(|(name, src, float)| mismatches_with_host(name, src, *float))
        .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(CASES.len() >= 25);
}
