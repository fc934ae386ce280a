/* Data-dependent while loops per element: integer square roots by Newton iteration, digit
 * reversal, and the number of steps of a binary gcd; all exact integers. */
#include <stdio.h>
#include <stdint.h>

#define N 8000

#pragma omp declare target
static uint64_t isqrt(uint64_t n)
{
    if (n < 2)
        return n;
    uint64_t x = n, y = (x + 1) / 2;
    while (y < x) {
        x = y;
        y = (x + n / x) / 2;
    }
    return x;
}

static int binary_gcd_steps(unsigned a, unsigned b)
{
    int steps = 0;
    while (a != b && a && b) {
        if (!(a & 1))
            a >>= 1;
        else if (!(b & 1))
            b >>= 1;
        else if (a > b)
            a = (a - b) >> 1;
        else
            b = (b - a) >> 1;
        steps++;
    }
    return steps;
}
#pragma omp end declare target

int main(void)
{
    static uint64_t r[N];
    static int rev[N], gs[N];
#pragma omp target teams distribute parallel for map(from : r, rev, gs)
    for (int i = 0; i < N; i++) {
        uint64_t n = (uint64_t)i * i * 1000003ULL + (uint64_t)i;
        r[i] = isqrt(n);
        int v = i, o = 0;
        while (v) {
            o = o * 10 + v % 10;
            v /= 10;
        }
        rev[i] = o;
        gs[i] = binary_gcd_steps((unsigned)i * 12 + 1, (unsigned)(N - i) * 18 + 1);
    }
    uint64_t sr = 0;
    long srev = 0, sg = 0;
    for (int i = 0; i < N; i++) {
        sr += r[i];
        srev += rev[i];
        sg += gs[i];
    }
    printf("isqrt=%llu rev=%ld gcdsteps=%ld r[7999]=%llu rev[1230]=%d\n", (unsigned long long)sr,
           srev, sg, (unsigned long long)r[N - 1], rev[1230]);
    return 0;
}
