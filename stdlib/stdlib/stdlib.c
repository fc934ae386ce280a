/* <stdlib.h> functions of the ompcc device C library (the allocation functions are in
 * heap.c). qsort is a stable binary-insertion sort that needs no memory (device code sorts
 * small arrays; O(n^2) moves); the string-to-integer conversions follow C11 7.22.1.4:
 * out-of-range values clamp and set errno to ERANGE, an invalid base sets EINVAL (as glibc
 * does). */
#include "ompcc_errno.h"
#include "ompcc_stdlib.h"
#include "ompcc_string.h"

/* Moves element `from` down to position `to` (to <= from), shifting the ones between up by
 * one, a byte column at a time so no element-sized buffer is needed. */
static void rotate_down(unsigned char *base, unsigned long to, unsigned long from,
                        unsigned long size) {
    for (unsigned long b = 0; b < size; b++) {
        unsigned char moving = base[from * size + b];
        for (unsigned long k = from; k > to; k--) {
            base[k * size + b] = base[(k - 1) * size + b];
        }
        base[to * size + b] = moving;
    }
}

void __ompcc_qsort(void *base, unsigned long n, unsigned long size,
                   int (*cmp)(const void *, const void *)) {
    unsigned char *a = base;
    for (unsigned long i = 1; i < n; i++) {
        /* The first position in [0, i) whose element is greater than element i: after the
         * equal ones, so the sort is stable. */
        unsigned long lo = 0, hi = i;
        while (lo < hi) {
            unsigned long mid = lo + (hi - lo) / 2;
            if (cmp(a + mid * size, a + i * size) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo < i) {
            rotate_down(a, lo, i, size);
        }
    }
}

void *__ompcc_bsearch(const void *key, const void *base, unsigned long n, unsigned long size,
                      int (*cmp)(const void *, const void *)) {
    const unsigned char *a = base;
    unsigned long lo = 0, hi = n;
    while (lo < hi) {
        unsigned long mid = lo + (hi - lo) / 2;
        int c = cmp(key, a + mid * size);
        if (c == 0) {
            return (void *)(a + mid * size);
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return 0;
}

static int is_space(int c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static int digit_value(int c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'Z') {
        return c - 'A' + 10;
    }
    return 99;
}

/* Character i of a narrow (width 1) or wide (width 4, wchar_t) string. */
static int char_at(const void *s, int width, long i) {
    if (width == 1) {
        return ((const unsigned char *)s)[i];
    }
    return ((const int *)s)[i];
}

/* The common parse: magnitude (saturated at `limit`, with *over set when it went past), sign,
 * and the length of the number (0 when there is none). */
static unsigned long long parse(const void *s, int width, long *end, int base, int *negative,
                                unsigned long long limit, int *over) {
    long p = 0;
    *negative = 0;
    *over = 0;
    *end = 0;
    if (base < 0 || base == 1 || base > 36) {
        OMPCC_SET_ERRNO(OMPCC_EINVAL);
        return 0;
    }
    while (is_space(char_at(s, width, p))) {
        p++;
    }
    if (char_at(s, width, p) == '+' || char_at(s, width, p) == '-') {
        *negative = char_at(s, width, p) == '-';
        p++;
    }
    if ((base == 0 || base == 16) && char_at(s, width, p) == '0' &&
        (char_at(s, width, p + 1) == 'x' || char_at(s, width, p + 1) == 'X') &&
        digit_value(char_at(s, width, p + 2)) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = char_at(s, width, p) == '0' ? 8 : 10;
    }
    unsigned long long v = 0;
    long first = p;
    for (; digit_value(char_at(s, width, p)) < base; p++) {
        unsigned long long d = (unsigned long long)digit_value(char_at(s, width, p));
        if (*over || v > (limit - d) / (unsigned long long)base) {
            *over = 1;
            v = limit;
        } else {
            v = v * (unsigned long long)base + d;
        }
    }
    /* "0x" is taken as a prefix only before a hex digit, so no digits means no number. */
    if (p != first) {
        *end = p;
    }
    return v;
}

long long __ompcc_i_strtoll(const void *s, int width, long *end, int base) {
    int negative, over;
    const unsigned long long max = 0x7fffffffffffffffull;
    unsigned long long v = parse(s, width, end, base, &negative, max + 1, &over);
    if (over || (!negative && v > max)) {
        OMPCC_SET_ERRNO(OMPCC_ERANGE);
    }
    if (negative) {
        return v > max ? (-0x7fffffffffffffffll - 1) : -(long long)v;
    }
    return v > max ? (long long)max : (long long)v;
}

/* The unsigned conversions negate in the unsigned type, as C11 7.22.1.4p5 requires. */
unsigned long long __ompcc_i_strtoull(const void *s, int width, long *end, int base) {
    int negative, over;
    unsigned long long v = parse(s, width, end, base, &negative, ~0ull, &over);
    if (over) {
        OMPCC_SET_ERRNO(OMPCC_ERANGE);
        return ~0ull;
    }
    return negative ? 0 - v : v;
}

long long __ompcc_strtoll(const char *restrict s, char **restrict end, int base) {
    long n;
    long long v = __ompcc_i_strtoll(s, 1, &n, base);
    if (end != 0) {
        *end = (char *)s + n;
    }
    return v;
}

unsigned long long __ompcc_strtoull(const char *restrict s, char **restrict end, int base) {
    long n;
    unsigned long long v = __ompcc_i_strtoull(s, 1, &n, base);
    if (end != 0) {
        *end = (char *)s + n;
    }
    return v;
}

long __ompcc_strtol(const char *restrict s, char **restrict end, int base) {
    return (long)__ompcc_strtoll(s, end, base);
}

unsigned long __ompcc_strtoul(const char *restrict s, char **restrict end, int base) {
    return (unsigned long)__ompcc_strtoull(s, end, base);
}

int __ompcc_atoi(const char *s) {
    return (int)__ompcc_strtol(s, 0, 10);
}

long __ompcc_atol(const char *s) {
    return __ompcc_strtol(s, 0, 10);
}

long long __ompcc_atoll(const char *s) {
    return __ompcc_strtoll(s, 0, 10);
}
