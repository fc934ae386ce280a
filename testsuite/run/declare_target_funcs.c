/* Device functions in a `declare target` block: a helper calling another, a static inline one,
 * a function taking and returning a struct by value, and a pointer argument. */
#include <stdio.h>

#define N 5000

struct pair {
    int lo, hi;
};

#pragma omp declare target
static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

int collatz_steps(long n)
{
    int steps = 0;
    while (n != 1) {
        n = (n % 2) ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}

struct pair minmax3(int a, int b, int c)
{
    struct pair p = {a, a};
    p.lo = b < p.lo ? b : p.lo;
    p.lo = c < p.lo ? c : p.lo;
    p.hi = b > p.hi ? b : p.hi;
    p.hi = c > p.hi ? c : p.hi;
    return p;
}

void accumulate(int *dst, int v)
{
    *dst += clampi(v, 0, 100);
}
#pragma omp end declare target

int main(void)
{
    static int steps[N], spread[N], acc[N];
#pragma omp target teams distribute parallel for map(from : steps, spread, acc)
    for (int i = 0; i < N; i++) {
        steps[i] = collatz_steps(i + 1);
        struct pair p = minmax3(i % 7, (i * 5) % 11, (i * 3) % 13);
        spread[i] = p.hi - p.lo;
        acc[i] = 0;
        accumulate(&acc[i], steps[i]);
        accumulate(&acc[i], -i);
    }
    long s1 = 0, s2 = 0, s3 = 0;
    int longest = 0;
    for (int i = 0; i < N; i++) {
        s1 += steps[i];
        s2 += spread[i];
        s3 += acc[i];
        if (steps[i] > steps[longest])
            longest = i;
    }
    printf("steps=%ld spread=%ld acc=%ld longest=%d (%d steps)\n", s1, s2, s3, longest + 1,
           steps[longest]);
    printf("steps[26]=%d spread[10]=%d acc[3]=%d\n", steps[26], spread[10], acc[3]);
    return 0;
}
