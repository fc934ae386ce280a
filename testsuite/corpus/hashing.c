/* Hash functions and PRNGs on fixed inputs: FNV-1a 32/64, CRC-32 (table and bitwise),
 * xorshift32/64, splitmix64, and Adler-32; printed with <inttypes.h> format macros. */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>

static uint32_t fnv1a32(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static uint64_t fnv1a64(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

static uint32_t crc_table[256];

static void crc32_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32_table(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint32_t c = 0xFFFFFFFFu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t crc32_bitwise(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint32_t adler32(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

static uint32_t xorshift32(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return *s = x;
}

static uint64_t xorshift64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return *s = x;
}

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

int main(void)
{
    const char *inputs[] = {"", "a", "abc", "123456789", "The quick brown fox jumps over the lazy dog"};
    crc32_init();
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        size_t n = strlen(inputs[i]);
        uint32_t c1 = crc32_table(inputs[i], n), c2 = crc32_bitwise(inputs[i], n);
        printf("%-12.12s fnv32=%08" PRIx32 " fnv64=%016" PRIx64 " crc32=%08" PRIX32 "%s adler=%08" PRIx32 "\n",
               inputs[i], fnv1a32(inputs[i], n), fnv1a64(inputs[i], n), c1,
               c1 == c2 ? "" : " (MISMATCH)", adler32(inputs[i], n));
    }
    uint32_t s32 = 1;
    uint64_t s64 = 88172645463325252u, sm = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t a = xorshift32(&s32);
        uint64_t b = xorshift64(&s64);
        uint64_t c = splitmix64(&sm);
        printf("%d: xs32=%" PRIu32 " xs64=%" PRIu64 " sm=%#" PRIx64 "\n", i, a, b, c);
    }
    uint32_t buckets[8] = {0};
    for (uint32_t i = 0; i < 8000; i++)
        buckets[fnv1a32(&i, sizeof i) & 7]++;
    printf("bucket counts:");
    for (int i = 0; i < 8; i++)
        printf(" %" PRIu32, buckets[i]);
    printf("\n");
    return 0;
}
