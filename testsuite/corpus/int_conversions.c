/* Integer and floating conversions: integer promotions, the usual arithmetic conversions with
 * mixed signedness, unsigned wrap-around, narrowing (GCC's modulo semantics), _Bool conversion,
 * shifts, division/modulo signs, and float<->int truncation; values a frontend must type exactly. */
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <limits.h>

int main(void)
{
    unsigned char uc = 200;
    signed char sc = -56;
    unsigned short us = 65535;
    short ss = -1;
    printf("uc+uc=%d (int), sc*2=%d, us+1=%d, ss+us=%d\n", uc + uc, sc * 2, us + 1, ss + us);
    printf("sizeof(uc+uc)=%zu sizeof(+sc)=%zu sizeof('a')=%zu sizeof(1L+1u)=%zu\n", sizeof(uc + uc), sizeof(+sc),
           sizeof('a'), sizeof(1L + 1u));

    unsigned u = 1;
    int i = -1;
    printf("-1 < 1 and (unsigned)-1 < 1u: %d, -1L < 1u: %d, -1 < (long)1u: %d\n", i < (int)u && (unsigned)i < u, -1L < 1u, -1 < (long)1u);
    printf("(unsigned)-1 = %u, -1 + 0u = %u, 0u - 1 = %u\n", (unsigned)-1, i + 0u, 0u - 1);
    printf("UINT_MAX + 1u = %u, (uint8_t)300 = %u, (int8_t)200 = %d, (int16_t)40000 = %d\n", UINT_MAX + 1u,
           (unsigned)(uint8_t)300, (int)(int8_t)200, (int)(int16_t)40000);
    long long big = 0x123456789LL;
    printf("(int)0x123456789 = %d, (unsigned)big = %u, (short)big = %d\n", (int)big, (unsigned)big, (short)big);

    const char *str = "x";
    bool b1 = 0.5, b2 = 256, b3 = -0.0, b4 = str;
    printf("_Bool: 0.5->%d 256->%d -0.0->%d ptr->%d, b1+b1=%d\n", b1, b2, b3, b4, b1 + b1);

    printf("1<<31 as unsigned=%u, -16>>2=%d (arithmetic), 0x80000000u>>31=%u, 1ULL<<63=%llu\n", 1u << 31, -16 >> 2,
           0x80000000u >> 31, 1ULL << 63);
    printf("7/2=%d -7/2=%d 7/-2=%d -7%%2=%d 7%%-2=%d\n", 7 / 2, -7 / 2, 7 / -2, -7 % 2, 7 % -2);
    printf("LLONG_MAX/3=%lld INT_MIN/2=%d\n", LLONG_MAX / 3, INT_MIN / 2);

    double dvals[] = {2.9, -2.9, 0.5, -0.5, 1e10};
    for (int k = 0; k < 4; k++)
        printf("(int)%.6g=%d ", dvals[k], (int)dvals[k]);
    printf("(long long)1e10=%lld\n", (long long)dvals[4]);
    printf("(unsigned)3.99=%u (float)16777217=%.1f (double)(float)0.1 != 0.1: %d\n", (unsigned)3.99,
           (double)(float)16777217, (double)(float)0.1 != 0.1);
    float f = 1.0f / 3.0f;
    double d = 1.0 / 3.0;
    printf("float*double is double: %d, f==d: %d, (float)d==f: %d\n", sizeof(f * d) == sizeof(double), f == d,
           (float)d == f);
    long double ld = 1.0L / 3.0L;
    printf("sizeof(ld+d)=%zu, ld > d: %d\n", sizeof(ld + d), ld > d);

    char c = 'A';
    c += 2;
    int ci = c * 2;
    printf("char arithmetic: %c %d\n", c, ci);
    uint32_t h = 0xDEADBEEF;
    uint16_t lo = (uint16_t)h, hi = (uint16_t)(h >> 16);
    printf("split: hi=%#x lo=%#x rejoined=%#x\n", hi, lo, ((uint32_t)hi << 16) | lo);
    int64_t m = INT32_MAX;
    m += 1;
    printf("int64 past INT32_MAX=%lld, (int32_t)(m) via cast=%d\n", (long long)m, (int)(int32_t)m);
    enum small { A = 1, B = 200 } e = B;
    printf("enum value=%d sizeof(enum)=%zu e+1=%d\n", e, sizeof e, e + 1);
    unsigned x = 5;
    x -= 10;
    printf("unsigned 5-10=%u, as int=%d\n", x, (int)x);
    return 0;
}
