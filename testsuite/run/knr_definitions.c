// K&R-style function definitions (`int f(a, b) int a; char *b; {...}`) in a unit with target
// regions: on the host (after an old-style declaration, with a parameter declared by
// default as int, a function pointer and qualified pointers) and in a declare-target
// function the region calls, where `short`, `float` and `char` parameters get the values
// the old-style promotions give (they were E0101 before).
#include <stdio.h>

double mix();

static int knr(a, b)
int a;
const char *b;
{
    return a + (b != 0);
}

double mix(x, n, scale, cb)
float x;
int n;
double scale;
int (*cb)(int);
{
    return x * scale + n + cb(n);
}

static int twice(v)
int v;
{
    return 2 * v;
}

static unsigned pairs(a, b, c)
unsigned a;
const unsigned *b;
char c;
{
    return a + *b + (unsigned)c;
}

#pragma omp declare target
static double blend(s, f, c)
short s;
float f;
char c;
{
    return s * 0.5 + f + c;
}
#pragma omp end declare target

int main(void) {
    unsigned u = 5;
    double d[4];
    printf("%d %.2f %u\n", knr(1, "x"), mix(1.5f, 3, 2.0, twice), pairs(1u, &u, 'A'));
#pragma omp target map(from : d)
    for (int i = 0; i < 4; i++)
        d[i] = blend((short)(i - 2), 0.25f * i, (char)('a' + i));
    printf("%.2f %.2f %.2f %.2f\n", d[0], d[1], d[2], d[3]);
    return 0;
}
