/* A mix of C11 and GNU constructs gcc accepts; the checker must accept them silently. */
#include <stddef.h>
#include <stdarg.h>
#include <complex.h>
typedef int F(int);
struct P { int x, y; };
union U { int i; float f; };
struct Z { int n; int z[0]; };
struct E { };
enum color { RED, GREEN, BLUE, };
static int sq(int v) { return v * v; }
F *fp = sq;
int (*(*fpa[3])(int))(double);
int (*getrow(int (*m)[4], int i))[4] { return m + i; }
static int sum(int n, ...) {
    va_list ap; va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}
struct A { union { int ai; float af; } u; struct { char tag; } t; };
struct A ga = { .u.ai = 3, .t = { 'z' } };
static struct P mkp(int a) { return (struct P){ a, a + 1 }; }
int main(int argc, char **argv) {
    int n = argc + 2;
    double vla[n][n];
    size_t vs = sizeof vla + sizeof(int[n]);
    typedef double row_t[n];
    row_t *rows = vla;
    rows[0][0] = 1.0;
    for (int i = 0, j = 10; i < j; i++, j--) vla[0][0] += i;
    struct P p = argc ? mkp(1) : mkp(2);
    (struct P){ 1, 2 }.x;
    union U u = (union U)3;
    int arr3[3] = { 1, 2, 3 };
    int (*pa)[3] = &arr3;
    int m4[2][4] = { 0 };
    int (*r)[4] = getrow(m4, 1);
    _Static_assert(sizeof(struct P) == 8, "P");
    _Alignas(32) char buf[64];
    __typeof__(p) q = p;
    double complex z = 1.0 + 2.0 * I;
    z *= z;
    long double ld = 1.0L / 3;
    const int ci = 5;
    int g = _Generic(ci, int: 1, default: 0) + _Generic(&ci, const int *: 2, default: 0);
    int s = ({ struct P t = { 4, 5 }; t; }).y;
    static void *targets[] = { &&l1, &&l2 };
    goto *targets[argc & 1];
l1: s++;
l2: ;
    enum color c = GREEN;
    switch (c) { case RED: s--; /* fall through */ case GREEN: s++; break; default: break; }
    unsigned u1 = 3; int neg = -1;
    int cmp = u1 > neg;
    struct Z *zp = 0;
    int *zz = zp ? zp->z : NULL;
    char *lit = (char[]){ "x" };
    int shadow = 1;
    { int shadow = 2; s += shadow; }
    s += __builtin_types_compatible_p(int, signed) + sum(3, 1, 2, 3) + fp(2);
    int x = sizeof(struct E);
    { int bits_ok; struct { unsigned b : 3; } bf = { 1 }; bf.b += 5; bf.b <<= 1; bits_ok = bf.b; s += bits_ok; }
    do { s--; } while (0);
    if (argv[0] && *argv[0] == '.') goto inner;
    { inner: s += 2; }
    return s + (int)vs + p.x + u.i + (*pa)[1] + (*r)[0] + (int)buf[0] + q.y + (int)creal(z) + (int)ld + g + cmp + (zz != 0) + lit[0] + x + (int)rows[0][0] + ga.u.ai;
}
