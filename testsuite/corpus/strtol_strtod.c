/* Number parsing with strtol/strtoul/strtoll/strtod/strtof/atoi: bases, prefixes, end pointers,
 * overflow reported through errno (ERANGE), and a hand-written parser compared against strtol. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <ctype.h>

static int my_atoi(const char *s, long *out)
{
    while (isspace((unsigned char)*s))
        s++;
    int neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    long v = 0;
    for (; isdigit((unsigned char)*s); s++) {
        int dgt = *s - '0';
        if (v > (LONG_MAX - dgt) / 10)
            return -1;
        v = v * 10 + dgt;
    }
    *out = neg ? -v : v;
    return 1;
}

static void show_long(const char *s, int base)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, base);
    int err = errno;
    printf("strtol(\"%s\", %d) = %ld, consumed %td, rest \"%s\"%s\n", s, base, v, end - s, end,
           err == ERANGE ? " ERANGE" : "");
}

static void show_double(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    int err = errno;
    printf("strtod(\"%s\") = %.6g, consumed %td%s\n", s, v, end - s, err == ERANGE ? " ERANGE" : "");
}

int main(void)
{
    show_long("12345", 10);
    show_long("  -42xyz", 10);
    show_long("0x1F", 16);
    show_long("0x1F", 0);
    show_long("0755", 0);
    show_long("z", 36);
    show_long("1010111", 2);
    show_long("99999999999999999999999", 10);
    show_long("-99999999999999999999999", 10);
    show_long("abc", 10);
    errno = 0;
    unsigned long ul = strtoul("18446744073709551615", NULL, 10);
    printf("strtoul max = %lu errno=%d\n", ul, errno);
    long long ll = strtoll("-9223372036854775808", NULL, 10);
    printf("strtoll min = %lld\n", ll);
    show_double("3.14159");
    show_double("  -2.5e-3end");
    show_double("1e400");
    show_double("1e-400");
    show_double("0x1.8p3");
    show_double("inf");
    show_double("nan(0)x");
    show_double(".5");
    show_double("e5");
    printf("strtof(\"0.1\") = %.9g\n", (double)strtof("0.1", NULL));
    printf("atoi(\"  77 \") = %d, atol(\"-8\") = %ld, atof(\"1.5e2\") = %.6g\n", atoi("  77 "), atol("-8"),
           atof("1.5e2"));
    const char *tests[] = {"0", "17", "-300", "+4", "2147483647", "x1", "9223372036854775808"};
    int agree = 0;
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        long mine = 0;
        int r = my_atoi(tests[i], &mine);
        errno = 0;
        char *end;
        long ref = strtol(tests[i], &end, 10);
        int ref_r = end == tests[i] ? 0 : errno == ERANGE ? -1 : 1;
        agree += r == ref_r && (r != 1 || mine == ref);
    }
    printf("hand parser agrees on %d of %zu inputs\n", agree, sizeof tests / sizeof *tests);
    errno = 0;
    printf("strerror(ERANGE) is non-empty: %d, EDOM != ERANGE: %d\n", strlen(strerror(ERANGE)) > 0, EDOM != ERANGE);
    return 0;
}
