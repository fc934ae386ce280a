/* Recursion in device functions: recursive Fibonacci, Ackermann on tiny inputs, a recursive
 * gcd, and mutual recursion (is_even/is_odd), called from a parallel kernel. */
#include <stdio.h>

#define N 256

#pragma omp declare target
static int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long gcd(long a, long b)
{
    return b == 0 ? a : gcd(b, a % b);
}

static int ack(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int is_odd(unsigned n);
static int is_even(unsigned n)
{
    return n == 0 ? 1 : is_odd(n - 1);
}
static int is_odd(unsigned n)
{
    return n == 0 ? 0 : is_even(n - 1);
}
#pragma omp end declare target

int main(void)
{
    static int f[N], a[N], e[N];
    static long g[N];
#pragma omp target teams distribute parallel for map(from : f, g, a, e)
    for (int i = 0; i < N; i++) {
        f[i] = fib(i % 16);
        g[i] = gcd(1071L * (i + 1), 462L * (i % 7 + 1));
        a[i] = ack(i % 3, i % 4);
        e[i] = is_even((unsigned)i);
    }
    long sf = 0, sg = 0, sa = 0, se = 0;
    for (int i = 0; i < N; i++) {
        sf += f[i];
        sg += g[i];
        sa += a[i];
        se += e[i];
    }
    printf("fib=%ld gcd=%ld ack=%ld even=%ld f[15]=%d g[10]=%ld a[11]=%d\n", sf, sg, sa, se, f[15],
           g[10], a[11]);
    return 0;
}
