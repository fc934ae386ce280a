/* Bit manipulation: popcount, count leading/trailing zeros, bit reversal, rotations,
 * power-of-two tests, Gray codes and Morton interleaving, each portable version checked
 * against the GCC builtins; uses <limits.h> widths. */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>
#include <stdbool.h>

static int popcount_portable(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}

static int clz_portable(uint32_t x)
{
    if (x == 0)
        return 32;
    int n = 0;
    while (!(x & 0x80000000u)) {
        x <<= 1;
        n++;
    }
    return n;
}

static int ctz_portable(uint32_t x)
{
    if (x == 0)
        return 32;
    return popcount_portable((x & (0u - x)) - 1);
}

static uint32_t reverse_bits(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}

static inline uint32_t rotl(uint32_t x, unsigned r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
static inline bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
static inline uint32_t gray(uint32_t x) { return x ^ (x >> 1); }

static uint32_t gray_inverse(uint32_t g)
{
    for (uint32_t shift = 1; shift < 32; shift <<= 1)
        g ^= g >> shift;
    return g;
}

static uint32_t morton2(uint16_t x, uint16_t y)
{
    uint32_t r = 0;
    for (int i = 0; i < 16; i++)
        r |= (uint32_t)((x >> i) & 1) << (2 * i) | (uint32_t)((y >> i) & 1) << (2 * i + 1);
    return r;
}

static uint64_t next_pow2(uint64_t x)
{
    x--;
    for (unsigned s = 1; s < 64; s <<= 1)
        x |= x >> s;
    return x + 1;
}

int main(void)
{
    printf("CHAR_BIT=%d INT_MAX=%d INT_MIN=%d UINT_MAX=%u\n", CHAR_BIT, INT_MAX, INT_MIN, UINT_MAX);
    printf("LONG_MAX=%ld LLONG_MIN=%lld SCHAR_MIN=%d USHRT_MAX=%d\n", LONG_MAX, LLONG_MIN, SCHAR_MIN, USHRT_MAX);
    uint32_t vals[] = {0, 1, 2, 3, 0x80000000u, 0xFFFFFFFFu, 0x12345678u, 0xDEADBEEFu, 1u << 20};
    int bad = 0;
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        uint32_t v = vals[i];
        int pc = popcount_portable(v), lz = clz_portable(v), tz = ctz_portable(v);
        if (pc != __builtin_popcount(v)) bad++;
        if (v && lz != __builtin_clz(v)) bad++;
        if (v && tz != __builtin_ctz(v)) bad++;
        if (gray_inverse(gray(v)) != v) bad++;
        printf("%08x pop=%2d clz=%2d ctz=%2d rev=%08x rotl7=%08x gray=%08x\n", v, pc, lz, tz,
               reverse_bits(v), rotl(v, 7), gray(v));
    }
    printf("pow2: ");
    for (uint64_t x = 0; x <= 17; x++)
        if (is_pow2(x))
            printf("%llu ", (unsigned long long)x);
    printf("\nnext_pow2(1000)=%llu next_pow2(4096)=%llu\n", (unsigned long long)next_pow2(1000),
           (unsigned long long)next_pow2(4096));
    printf("morton(3,5)=%u morton(65535,0)=%08x\n", morton2(3, 5), morton2(65535, 0));
    printf("builtin mismatches: %d\n", bad);
    return bad != 0;
}
