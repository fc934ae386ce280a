/* User variadic functions in a kernel (the device varargs ABI): a sum of a counted list of
 * ints, a typed mixer reading int/long/double/struct arguments, a logger that forwards its
 * va_list to vsnprintf, va_copy, and calls through a pointer to a variadic function. The
 * host prints every result. */
#include <stdarg.h>
#include <stdio.h>

#define N 40
#define W 96

struct pt { short x; double w; char tag; };

#pragma omp declare target
static long sum_count(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 3 + va_arg(ap, int);
    va_end(ap);
    return s;
}

static double mix(const char *kinds, ...)
{
    va_list ap, again;
    va_start(ap, kinds);
    va_copy(again, ap);
    double r = 0;
    for (const char *k = kinds; *k; k++) {
        if (*k == 'i')
            r = r * 2 + va_arg(ap, int);
        else if (*k == 'l')
            r = r * 2 + (double)va_arg(ap, long);
        else if (*k == 'd')
            r = r * 2 + va_arg(ap, double);
        else {
            struct pt p = va_arg(ap, struct pt);
            r = r * 2 + p.x * p.w + p.tag;
        }
    }
    /* the copy reads the first argument again */
    if (kinds[0] == 'i')
        r += va_arg(again, int) * 1000;
    va_end(again);
    va_end(ap);
    return r;
}

static int log_line(char *buf, int cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, (size_t)cap, fmt, ap);
    va_end(ap);
    return n;
}
#pragma omp end declare target

static long sums[N], count[N];
static double mixed[N];
static char logs[N][W];

int main(void)
{
#pragma omp target teams distribute parallel for map(from : sums, count, mixed, logs)
    for (int i = 0; i < N; i++) {
        long (*fp)(int, ...) = sum_count;
        char c = (char)(i - 5);
        float f = 0.5f * (float)i;
        struct pt p = {(short)(i - 7), 0.25 * i, (char)('a' + i % 26)};
        sums[i] = sum_count(i % 6, i, c, 2 * i, i * i, -i, 7) + sum_count(0);
        count[i] = fp(3, i, i + 1, i + 2);
        if (i % 2)
            mixed[i] = mix("ildsd", i, (long)i << 33, f, p, 1.0 / 8);
        else
            mixed[i] = mix("dsil", f, p, i, (long)i << 33);
        log_line(logs[i], W, "i=%d sum=%ld mix=%.4f hex=%#x %s", i, sums[i], mixed[i], i * 4099,
                 i % 3 ? "odd" : "even");
    }
    for (int i = 0; i < N; i++)
        printf("%2d %ld %ld %.6f | %s\n", i, sums[i], count[i], mixed[i], logs[i]);
    return 0;
}
