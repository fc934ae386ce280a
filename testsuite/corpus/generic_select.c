/* C11 _Generic: type names, type-dispatched printing and absolute value, a generic max that
 * keeps the common type, qualifier handling, and <tgmath.h> type-generic math. */
#include <stdio.h>
#include <tgmath.h>
#include <stdint.h>
#include <stdbool.h>

#define TYPE_NAME(x) _Generic((x),                                         \
    _Bool: "_Bool", char: "char", signed char: "signed char",              \
    unsigned char: "unsigned char", short: "short", unsigned short: "unsigned short", \
    int: "int", unsigned: "unsigned", long: "long", unsigned long: "unsigned long", \
    long long: "long long", unsigned long long: "unsigned long long",      \
    float: "float", double: "double", long double: "long double",          \
    char *: "char *", const char *: "const char *", int *: "int *",       \
    default: "other")

static void print_int(int x) { printf("int %d\n", x); }
static void print_long(long x) { printf("long %ld\n", x); }
static void print_double(double x) { printf("double %.6g\n", x); }
static void print_str(const char *s) { printf("string \"%s\"\n", s); }
static void print_bool(bool b) { printf("bool %s\n", b ? "true" : "false"); }

#define PRINT(x) _Generic((x), int: print_int, long: print_long, float: print_double, \
    double: print_double, char *: print_str, const char *: print_str, bool: print_bool)(x)

static int abs_i(int x) { return x < 0 ? -x : x; }
static long abs_l(long x) { return x < 0 ? -x : x; }
static double abs_d(double x) { return x < 0 ? -x : x; }
#define ABS(x) _Generic((x), int: abs_i, long: abs_l, default: abs_d)(x)

/* the type of a+b selects the comparison; arguments evaluated once */
#define MAX(a, b) ({ __typeof__((a) + (b)) a_ = (a), b_ = (b); a_ > b_ ? a_ : b_; })

#define IS_SIGNED(T) ((T)-1 < (T)1)
#define IS_FLOATING(x) _Generic((x), float: 1, double: 1, long double: 1, default: 0)

int main(void)
{
    char c = 'a';
    short s = 1;
    unsigned u = 2;
    float f = 1.5f;
    long double ld = 2.0L;
    const char *cs = "x";
    int arr[3] = {0};
    printf("%s %s %s %s %s\n", TYPE_NAME(c), TYPE_NAME(s), TYPE_NAME(u), TYPE_NAME(f), TYPE_NAME(ld));
    printf("%s %s %s %s\n", TYPE_NAME(cs), TYPE_NAME(arr), TYPE_NAME(&arr), TYPE_NAME((bool)1));
    printf("promotions: c+1 is %s, s*s is %s, u+1L is %s, f*2 is %s, 1.0f+1 is %s\n",
           TYPE_NAME(c + 1), TYPE_NAME(s * s), TYPE_NAME(u + 1L), TYPE_NAME(f * 2), TYPE_NAME(1.0f + 1));
    printf("u + -1 is %s, (char)c is %s, 'a' is %s\n", TYPE_NAME(u + -1), TYPE_NAME((char)c), TYPE_NAME('a'));
    PRINT(42);
    PRINT(42L);
    PRINT(2.5f);
    PRINT("text");
    PRINT((bool)0);
    printf("ABS: %d %ld %.6g\n", ABS(-5), ABS(-7L), ABS(-2.25));
    printf("MAX: %d %.6g %s\n", MAX(3, 9), MAX(2, 2.5), TYPE_NAME(MAX(1u, 2)));
    printf("signed: int=%d unsigned=%d uint16_t=%d int8_t=%d\n", IS_SIGNED(int), IS_SIGNED(unsigned),
           IS_SIGNED(uint16_t), IS_SIGNED(int8_t));
    printf("floating: %d %d %d\n", IS_FLOATING(f), IS_FLOATING(1), IS_FLOATING(ld));

    /* tgmath: the same name picks sqrtf, sqrt or sqrtl, or csqrt for complex arguments */
    float rf = sqrt(2.0f);
    double rd = sqrt(2.0);
    long double rl = sqrt(2.0L);
    printf("tgmath sqrt: %s %s %s\n", TYPE_NAME(sqrt(2.0f)), TYPE_NAME(sqrt(2.0)), TYPE_NAME(sqrt(2.0L)));
    printf("values: %.6g %.6g %.6Lg\n", (double)rf, rd, rl);
    printf("pow(2,10)=%.6g exp(1)=%.6g fabs(-3)=%.6g cbrt(27)=%.6g hypot(3,4)=%.6g\n", pow(2.0, 10),
           exp(1.0), fabs(-3.0f), cbrt(27.0), hypot(3.0, 4.0));
    printf("fmax(1,2.5)=%.6g round(2.5)=%.6g trunc(-2.7)=%.6g lround type=%s\n", fmax(1.0f, 2.5), round(2.5),
           trunc(-2.7), TYPE_NAME(lround(2.5)));
    double complex z = sqrt(-4.0 + 0.0 * I);
    printf("sqrt(-4+0i)=%.6g%+.6gi abs=%.6g\n", creal(z), cimag(z), fabs(z));
    return 0;
}
