/* Variadic functions with <stdarg.h>: sentinel- and count-terminated lists, mixed types read
 * by a format string, va_copy for two passes, forwarding a va_list, and default promotions. */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <stddef.h>

static int sum_count(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static size_t concat(char *out, size_t cap, ...)
{
    va_list ap;
    va_start(ap, cap);
    size_t len = 0;
    out[0] = '\0';
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *)) {
        size_t n = strlen(s);
        if (len + n + 1 > cap)
            break;
        memcpy(out + len, s, n + 1);
        len += n;
    }
    va_end(ap);
    return len;
}

/* a tiny formatter: i=int, l=long, d=double (float promotes to double), c=char (promotes to
 * int), s=string, p=pointer compared against NULL */
static void describe(const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    for (const char *t = types; *t; t++) {
        switch (*t) {
        case 'i': printf(" int:%d", va_arg(ap, int)); break;
        case 'l': printf(" long:%ld", va_arg(ap, long)); break;
        case 'd': printf(" double:%.6g", va_arg(ap, double)); break;
        case 'c': printf(" char:%c", (char)va_arg(ap, int)); break;
        case 's': printf(" str:%s", va_arg(ap, const char *)); break;
        case 'p': printf(" ptr:%s", va_arg(ap, void *) ? "set" : "null"); break;
        }
    }
    va_end(ap);
    printf("\n");
}

static double mean_and_max(int n, double *max, ...)
{
    va_list ap, again;
    va_start(ap, max);
    va_copy(again, ap);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    *max = -1e300;
    for (int i = 0; i < n; i++) {
        double v = va_arg(again, double);
        if (v > *max)
            *max = v;
    }
    va_end(again);
    va_end(ap);
    return s / n;
}

static int vlog(const char *prefix, const char *fmt, va_list ap)
{
    char buf[128];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    printf("%s%s\n", prefix, buf);
    return n;
}

__attribute__((format(printf, 2, 3))) static int logf_(int level, const char *fmt, ...)
{
    static const char *prefixes[] = {"[debug] ", "[info] ", "[warn] "};
    va_list ap;
    va_start(ap, fmt);
    int n = vlog(prefixes[level], fmt, ap);
    va_end(ap);
    return n;
}

int main(void)
{
    printf("sum_count: %d %d %d\n", sum_count(0), sum_count(3, 1, 2, 3), sum_count(5, 10, -20, 30, -40, 50));
    char buf[32];
    size_t n = concat(buf, sizeof buf, "va", "_", "list", " ", "works", (char *)NULL);
    printf("concat: \"%s\" (%zu)\n", buf, n);
    n = concat(buf, 8, "too", "long", "for", "buffer", (char *)NULL);
    printf("concat truncated: \"%s\" (%zu)\n", buf, n);
    float f = 2.5f;
    short sh = -7;
    int x = 1;
    printf("describe:");
    describe("ildcsp", sh, 1234567890123L, f, 'Q', "text", (void *)&x);
    printf("describe:");
    describe("pd", (void *)NULL, 1e-3);
    double mx;
    double mean = mean_and_max(4, &mx, 1.5, 9.25, -3.0, 4.0);
    printf("mean=%.6g max=%.6g\n", mean, mx);
    int written = logf_(1, "%d items, %.2f%% done, status=%s", 42, 87.5, "ok");
    logf_(2, "returned %d", written);
    return 0;
}
