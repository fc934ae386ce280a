/* Preprocessor techniques: variadic macros with __VA_ARGS__ and argument counting, token
 * pasting to generate functions, stringizing (with two-level expansion), and ## __VA_ARGS__. */
#include <stdio.h>
#include <string.h>

#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)

#define VERSION_MAJOR 3
#define VERSION_MINOR 14
#define VERSION XSTR(VERSION_MAJOR) "." XSTR(VERSION_MINOR)

/* count 1..8 arguments */
#define NARGS(...) NARGS_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n

#define LOG(fmt, ...) printf("[log] " fmt "\n", ##__VA_ARGS__)
#define SHOW(expr) printf("%-26s = %d\n", #expr, (expr))

/* sum of a variable number of ints through a compound literal array */
#define SUM(...) sum_ints((int[]){__VA_ARGS__}, NARGS(__VA_ARGS__))
static int sum_ints(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* generate typed max functions by pasting the type name into the identifier */
#define DEFINE_MAX(type)                                      \
    static type CAT(max_, type)(type a, type b) { return a > b ? a : b; }
DEFINE_MAX(int)
DEFINE_MAX(long)
DEFINE_MAX(double)

/* unique names per use (__COUNTER__ is a GNU extension that every host compiler here has) */
#define UNIQUE(prefix) XCAT(prefix, __COUNTER__)

/* apply a macro to each of up to 4 arguments */
#define FOREACH_1(m, x) m(x)
#define FOREACH_2(m, x, ...) m(x) FOREACH_1(m, __VA_ARGS__)
#define FOREACH_3(m, x, ...) m(x) FOREACH_2(m, __VA_ARGS__)
#define FOREACH_4(m, x, ...) m(x) FOREACH_3(m, __VA_ARGS__)
#define FOREACH(m, ...) XCAT(FOREACH_, NARGS(__VA_ARGS__))(m, __VA_ARGS__)
#define PRINT_VAR(v) printf("  %s=%d\n", #v, v);

#define FIRST(a, ...) a
#define REST(a, ...) __VA_ARGS__

int main(void)
{
    printf("version %s\n", VERSION);
    printf("stringized: %s | %s\n", STR(a + b * (c)), STR("quoted" and 'c'));
    printf("unexpanded: %s, expanded: %s\n", STR(VERSION_MAJOR), XSTR(VERSION_MAJOR));
    SHOW(NARGS(x));
    SHOW(NARGS(x, y, z));
    SHOW(NARGS(1, 2, 3, 4, 5, 6, 7, 8));
    SHOW(SUM(1, 2, 3, 4));
    SHOW(SUM(10));
    SHOW(max_int(3, -7));
    printf("max_long=%ld max_double=%.6g\n", max_long(5L, 9L), max_double(2.5, -1.0));
    LOG("no arguments");
    LOG("one: %d", 1);
    LOG("two: %s %c", "x", 'y');
    int UNIQUE(tmp) = 5;
    int UNIQUE(tmp) = 6;
    printf("two uniquely named variables sum to %d\n", tmp0 + tmp1);
    int alpha = 1, beta = 22, gamma = 333;
    printf("foreach:\n");
    FOREACH(PRINT_VAR, alpha, beta, gamma)
    printf("first=%d rest-sum=%d\n", FIRST(7, 8, 9), SUM(REST(7, 8, 9)));
    printf("__func__=%s __LINE__ is an int: %d\n", __func__, __LINE__ > 0);
    printf("strlen(__FILE__ basename)>0: %d\n", strlen(strrchr("/" __FILE__, '/')) > 1);
    return 0;
}
