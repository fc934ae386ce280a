/* Compares the device library's <stdlib.h> functions (stdlib/stdlib.c compiled for the host)
 * with glibc's: string-to-integer conversions on generated strings (spaces, signs, prefixes,
 * every base, overflow; value, end pointer and errno), qsort against glibc's on keys without ties
 * plus a stability check, bsearch hits and misses, calloc zeroing. Exits non-zero on a
 * mismatch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ompcc_errno.h"
#include "ompcc_stdlib.h"

static int fails;
static long checks;
static void check(int ok, const char *what, const char *input) {
    checks++;
    if (!ok && fails++ < 20) printf("mismatch: %s(\"%s\")\n", what, input);
}
static unsigned long rng = 2463534242ul;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static const char *pieces[] = {" ", "\t", "+", "-", "0", "0x", "0X", "1", "7", "9", "z", "Z", "f",
                               "a", "8", "99999999999999999999", "18446744073709551615",
                               "9223372036854775807", "9223372036854775808", "x", ".", ""};

static int by_key(const void *a, const void *b) {
    int x = *(const int *)a / 256, y = *(const int *)b / 256;
    return (x > y) - (x < y);
}
static int by_value(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void) {
    char s[128];
    for (int r = 0; r < 40000; r++) {
        s[0] = 0;
        for (unsigned k = 0, n = 1 + rnd(5); k < n; k++)
            strcat(s, pieces[rnd(sizeof pieces / sizeof pieces[0])]);
        int base = (int)rnd(38);
        if (base == 1 || base == 37) base = rnd(2) ? 0 : 16;
        char *e1, *e2;
        /* Value, end pointer and errno (ERANGE, EINVAL) must all agree. */
#define SAME(ours, theirs)                                                                     \
    (*__ompcc___errno_location() = 0, errno = 0, (ours) == (theirs) && e1 == e2 &&             \
                                                     *__ompcc___errno_location() == errno)
        check(SAME(__ompcc_strtol(s, &e1, base), strtol(s, &e2, base)), "strtol", s);
        check(SAME(__ompcc_strtoll(s, &e1, base), strtoll(s, &e2, base)), "strtoll", s);
        check(SAME(__ompcc_strtoul(s, &e1, base), strtoul(s, &e2, base)), "strtoul", s);
        check(SAME(__ompcc_strtoull(s, &e1, base), strtoull(s, &e2, base)), "strtoull", s);
        check(__ompcc_atoi(s) == atoi(s) || strtol(s, 0, 10) != (int)strtol(s, 0, 10), "atoi", s);
        check(__ompcc_atol(s) == atol(s), "atol", s);
    }
    for (int r = 0; r < 300; r++) {
        int n = (int)rnd(200), a[200], b[200];
        for (int i = 0; i < n; i++) a[i] = b[i] = (int)rnd(100000) * 16 + i % 16;
        __ompcc_qsort(a, n, sizeof a[0], by_value);
        qsort(b, n, sizeof b[0], by_value);
        check(!memcmp(a, b, sizeof a[0] * n), "qsort", "ints");
        /* Sorted by key, and stable: equal keys keep their order (the low byte is the
         * original index). */
        for (int i = 0; i < n; i++) a[i] = (int)rnd(8) * 256 + i;
        __ompcc_qsort(a, n, sizeof a[0], by_key);
        int stable = 1;
        for (int i = 1; i < n; i++)
            stable &= a[i - 1] / 256 < a[i] / 256 ||
                      (a[i - 1] / 256 == a[i] / 256 && a[i - 1] % 256 < a[i] % 256);
        check(stable, "qsort stability", "keys");
        qsort(b, n, sizeof b[0], by_value);
        for (int q = 0; q < 20; q++) {
            int key = q % 2 && n ? b[rnd(n)] : (int)rnd(1600000);
            int *x = __ompcc_bsearch(&key, b, n, sizeof b[0], by_value);
            int *y = bsearch(&key, b, n, sizeof b[0], by_value);
            check((x == 0) == (y == 0) && (!x || *x == *y), "bsearch", "ints");
        }
    }
    int *z = __ompcc_calloc(1000, sizeof(int));
    int zero = z != 0;
    for (int i = 0; z && i < 1000; i++) zero &= z[i] == 0;
    check(zero, "calloc", "1000 ints");
    check(__ompcc_calloc((unsigned long)-1, 16) == 0, "calloc overflow", "");
    __ompcc_free(z);

    /* The allocation functions: contents survive realloc growth and shrinking, alignments
     * hold, errors are reported as C and POSIX say. */
    char *grow = 0;
    int kept = 1;
    for (int n = 1; n <= 4096; n *= 2) {
        grow = __ompcc_realloc(grow, (unsigned long)n);
        for (int i = n / 2; i < n; i++) grow[i] = (char)(i * 7);
        for (int i = 0; i < n; i++) kept &= grow[i] == (char)(i * 7);
    }
    grow = __ompcc_realloc(grow, 10);
    for (int i = 0; i < 10; i++) kept &= grow[i] == (char)(i * 7);
    check(kept, "realloc", "grow to 4096, shrink to 10");
    check(__ompcc_realloc(grow, 0) == 0, "realloc", "size 0 frees");
    int aligned = 1;
    for (unsigned long al = 1; al <= 4096; al *= 2) {
        void *p = __ompcc_aligned_alloc(al, 100);
        aligned &= p != 0 && (unsigned long)p % al == 0 && (unsigned long)p % 16 == 0;
        __ompcc_free(p);
    }
    check(aligned, "aligned_alloc", "1..4096");
    check(__ompcc_aligned_alloc(24, 100) == 0, "aligned_alloc", "not a power of two");
    void *pm = 0;
    check(__ompcc_posix_memalign(&pm, 256, 10) == 0 && (unsigned long)pm % 256 == 0,
          "posix_memalign", "256");
    __ompcc_free(pm);
    check(__ompcc_posix_memalign(&pm, 4, 10) == 22, "posix_memalign", "4 is EINVAL");
    check(__ompcc_malloc((unsigned long)-8) == 0, "malloc", "huge");
    __ompcc_free(0);
    printf("stdlib: %ld checks, %d mismatches\n", checks, fails);
    return fails != 0;
}
