/* Static initializers built from the constant macros of the standard headers. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static const double limits_d[] = { INFINITY, -INFINITY, HUGE_VAL, DBL_MAX, DBL_MIN, DBL_EPSILON, M_PI };
static const float limits_f[] = { HUGE_VALF, FLT_MAX, FLT_EPSILON, NAN };
static const long double big = HUGE_VALL;
static const int ints[] = { INT_MIN, INT_MAX, CHAR_BIT, SCHAR_MIN, SHRT_MAX, EOF, EINVAL, ENOMEM };
static const long longs[] = { LONG_MIN, LONG_MAX, INT64_MIN, PTRDIFF_MAX };
static const unsigned long long ulls[] = { ULLONG_MAX, UINT64_MAX, SIZE_MAX, UINT32_C(7) };
static const char *const names[] = { "a", "b", NULL };
static int table[CHAR_BIT * sizeof(int)];
struct pair { const char *key; int value; };
static const struct pair pairs[] = { { "one", 1 }, { "two", 2 }, { NULL, 0 } };
static const size_t n_pairs = sizeof pairs / sizeof pairs[0];
static const size_t off = offsetof(struct pair, value);

int main(void) {
    table[0] = (int)n_pairs + (int)off;
    printf("%f %f %Lf %d %ld %llu %s %d\n", limits_d[0], (double)limits_f[0], big, ints[0], longs[0],
           ulls[0], names[0], table[0]);
    return 0;
}
