/* Compares the device library's <string.h> functions (string/string.c, compiled for the
 * host) with glibc's on random inputs over a 4-letter alphabet (so matches, prefixes and
 * early terminators are frequent): the same return value (pointers as offsets), the same
 * bytes written, and nothing written outside the bytes the standard allows. Prints one line
 * per mismatch and a summary; exits non-zero on any mismatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompcc_string.h"

enum { N = 64, ROUNDS = 20000 };
static unsigned long rng = 88172645463325252ul;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}
/* A string of up to N/2 letters from "abc\xe9" (a byte above 127 tests the unsigned
 * ordering), zero-terminated, followed by letters again (bytes past the end must not matter). */
static void fill(char *s) {
    static const char alphabet[] = {'a', 'b', 'c', (char)0xe9};
    for (int i = 0; i < N; i++) s[i] = alphabet[rnd(4)];
    s[rnd(N / 2)] = 0;
}
static long fails, checks;
static void check(int ok, const char *fn, int round) {
    checks++;
    if (!ok && fails++ < 20) printf("mismatch: %s (round %d)\n", fn, round);
}
static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
    char a[N], b[N], x[2 * N], y[2 * N];
    for (int r = 0; r < ROUNDS; r++) {
        fill(a);
        fill(b);
        unsigned long n = rnd(N / 2 + 2);
        int c = "abc\xe9"[rnd(4)];
        if (rnd(8) == 0) c = 0;
        check(__ompcc_strlen(a) == strlen(a), "strlen", r);
        check(__ompcc_strnlen(a, n) == strnlen(a, n), "strnlen", r);
        check(__ompcc_strcmp(a, b) == strcmp(a, b), "strcmp", r);
        check(__ompcc_strncmp(a, b, n) == strncmp(a, b, n), "strncmp", r);
        /* Only the sign is C's: glibc's memcmp value depends on the variant it picks for the
         * CPU (a byte difference or +-1), so it differs between machines. */
        check(sign(__ompcc_memcmp(a, b, n)) == sign(memcmp(a, b, n)), "memcmp sign", r);
        check(__ompcc_memchr(a, c, n) == memchr(a, c, n), "memchr", r);
        check(__ompcc_strchr(a, c) == strchr(a, c), "strchr", r);
        check(__ompcc_strrchr(a, c) == strrchr(a, c), "strrchr", r);
        char needle[4] = {0};
        for (unsigned k = 0, len = rnd(4); k < len; k++) needle[k] = "abc"[rnd(3)];
        check(__ompcc_strstr(a, needle) == strstr(a, needle), "strstr", r);
        /* Writers: the same bytes in a 2N buffer prefilled alike. */
        memset(x, 'z', sizeof x);
        memset(y, 'z', sizeof y);
        check(__ompcc_strcpy(x, a) == x && strcpy(y, a) == y && !memcmp(x, y, sizeof x),
              "strcpy", r);
        check(__ompcc_strncpy(x, b, n) == x && strncpy(y, b, n) == y && !memcmp(x, y, sizeof x),
              "strncpy", r);
        memset(x, 'z', sizeof x);
        memset(y, 'z', sizeof y);
        strcpy(x, a);
        strcpy(y, a);
        check(__ompcc_strcat(x, b) == x && strcat(y, b) == y && !memcmp(x, y, sizeof x),
              "strcat", r);
        strcpy(x, a);
        strcpy(y, a);
        check(__ompcc_strncat(x, b, n) == x && strncat(y, b, n) == y && !memcmp(x, y, sizeof x),
              "strncat", r);
        check(__ompcc_memset(x, c, n) == x && memset(y, c, n) == y && !memcmp(x, y, sizeof x),
              "memset", r);
        check(__ompcc_memcpy(x + 1, a, n) == x + 1 && memcpy(y + 1, a, n) == y + 1 &&
                  !memcmp(x, y, sizeof x),
              "memcpy", r);
        /* Overlapping moves in both directions. */
        unsigned long off = rnd(8);
        memcpy(x, a, N);
        memcpy(y, a, N);
        check(__ompcc_memmove(x + off, x, n) == x + off && memmove(y + off, y, n) == y + off &&
                  !memcmp(x, y, sizeof x),
              "memmove up", r);
        check(__ompcc_memmove(x, x + off, n) == x && memmove(y, y + off, n) == y &&
                  !memcmp(x, y, sizeof x),
              "memmove down", r);
    }
    printf("%ld checks, %ld mismatches\n", checks, fails);
    return fails != 0;
}
