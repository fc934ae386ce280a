/* Structs and unions by value across calls, covering the x86-64 SysV classes: small integer
 * structs (one/two registers), float pairs (SSE), mixed int/float, large structs (memory),
 * structs with arrays, unions, and returning each kind; also struct assignment and comparison. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

struct c3 { char a, b, c; };
struct i2 { int x, y; };
struct l2 { long a, b; };
struct f2 { float x, y; };
struct d2 { double re, im; };
struct mix { int tag; double value; };
struct fi { float f; int i; };
struct big { long v[6]; char name[12]; };
union num { int64_t i; double d; };
struct nested { struct i2 p; struct f2 q; };

static struct c3 c3_rot(struct c3 s) { return (struct c3){s.b, s.c, s.a}; }
static struct i2 i2_add(struct i2 a, struct i2 b) { return (struct i2){a.x + b.x, a.y + b.y}; }
static struct l2 l2_swap(struct l2 s) { return (struct l2){s.b, s.a}; }
static struct f2 f2_scale(struct f2 s, float k) { return (struct f2){s.x * k, s.y * k}; }
static struct d2 d2_mul(struct d2 a, struct d2 b)
{
    return (struct d2){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
static struct mix mix_bump(struct mix m) { m.tag++; m.value *= 2; return m; }
static struct fi fi_make(int i) { return (struct fi){i * 0.5f, i * 3}; }
static struct big big_fill(long base, const char *name)
{
    struct big b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < 6; i++)
        b.v[i] = base + i * i;
    snprintf(b.name, sizeof b.name, "%s", name);
    return b;
}
static long big_sum(struct big b)
{
    long s = 0;
    for (int i = 0; i < 6; i++)
        s += b.v[i];
    b.v[0] = -1; /* a copy: the caller's struct is unchanged */
    return s;
}
static union num num_half(union num n, int is_double)
{
    if (is_double) n.d /= 2; else n.i /= 2;
    return n;
}
static struct nested nested_flip(struct nested n)
{
    return (struct nested){{n.p.y, n.p.x}, {n.q.y, n.q.x}};
}

/* many arguments: some in registers, the rest on the stack */
static double many(int a, double b, struct i2 c, float d, struct d2 e, long f, struct big g, char h, struct f2 i)
{
    return a + b + c.x + c.y + d + e.re + e.im + (double)f + (double)g.v[5] + h + i.x + i.y;
}

int main(void)
{
    struct c3 c = c3_rot((struct c3){'x', 'y', 'z'});
    printf("c3: %c%c%c sizeof=%zu\n", c.a, c.b, c.c, sizeof c);
    struct i2 p = i2_add((struct i2){1, 2}, (struct i2){30, 40});
    printf("i2: %d %d\n", p.x, p.y);
    struct l2 l = l2_swap((struct l2){1L << 40, -5});
    printf("l2: %ld %ld\n", l.a, l.b);
    struct f2 f = f2_scale((struct f2){1.5f, -2.0f}, 3.0f);
    printf("f2: %.6g %.6g\n", (double)f.x, (double)f.y);
    struct d2 z = d2_mul((struct d2){1, 2}, (struct d2){3, -1});
    printf("d2: %.6g %.6g\n", z.re, z.im);
    struct mix m = mix_bump((struct mix){7, 1.25});
    printf("mix: %d %.6g sizeof=%zu\n", m.tag, m.value, sizeof m);
    struct fi q = fi_make(5);
    printf("fi: %.6g %d\n", (double)q.f, q.i);
    struct big b = big_fill(100, "big-struct");
    long s = big_sum(b);
    printf("big: sum=%ld v[0] still %ld name=%s sizeof=%zu\n", s, b.v[0], b.name, sizeof b);
    union num n1 = num_half((union num){.i = 1001}, 0), n2 = num_half((union num){.d = 3.0}, 1);
    printf("union: %lld %.6g\n", (long long)n1.i, n2.d);
    struct nested nn = nested_flip((struct nested){{1, 2}, {3.5f, 4.5f}});
    printf("nested: %d %d %.6g %.6g\n", nn.p.x, nn.p.y, (double)nn.q.x, (double)nn.q.y);
    printf("many: %.6g\n", many(1, 2.5, p, 0.25f, z, 1000, b, 'A', f));
    struct i2 copy = p;
    copy.x++;
    printf("assignment copies: %d vs %d, memcmp equal after undo: ", p.x, copy.x);
    copy.x--;
    printf("%d\n", memcmp(&copy, &p, sizeof p) == 0);
    struct big arr[2] = {b, big_fill(7, "second")};
    arr[0] = arr[1];
    printf("array of structs assigned: %s %ld\n", arr[0].name, arr[0].v[5]);
    return 0;
}
