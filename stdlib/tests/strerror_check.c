/* Compares the device library's strerror, strdup, strndup, puts and putchar (compiled for
 * the host) with glibc's: strerror's text for -10..300 and the int extremes, the copies'
 * bytes for every length and bound, and puts/putchar return values (their output is
 * checked by the Rust test: each line printed twice, ours then glibc's). Exits non-zero on
 * a mismatch. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ompcc_output.h"
#include "ompcc_stdlib.h"
#include "ompcc_string.h"

static int fails;
static long checks;
static void check(int ok, const char *what, long detail) {
    checks++;
    if (!ok && fails++ < 20) printf("mismatch: %s (%ld)\n", what, detail);
}

int main(void) {
    int codes[320];
    int n = 0;
    for (int e = -10; e <= 300; e++) codes[n++] = e;
    codes[n++] = INT_MIN;
    codes[n++] = INT_MAX;
    for (int i = 0; i < n; i++) {
        char ours[128];
        snprintf(ours, sizeof ours, "%s", __ompcc_strerror(codes[i]));
        check(strcmp(ours, strerror(codes[i])) == 0, "strerror", codes[i]);
    }
    const char *text = "device strings, copied";
    for (size_t len = 0; len <= strlen(text); len++) {
        char src[64];
        memcpy(src, text, len);
        src[len] = 0;
        char *a = __ompcc_strdup(src), *b = strdup(src);
        check(a && b && strcmp(a, b) == 0 && a != src, "strdup", (long)len);
        __ompcc_free(a);
        free(b);
        for (size_t bound = 0; bound < len + 3; bound++) {
            a = __ompcc_strndup(src, bound);
            b = strndup(src, bound);
            check(a && b && strcmp(a, b) == 0, "strndup", (long)(len * 100 + bound));
            __ompcc_free(a);
            free(b);
        }
    }
    /* Flushed between calls so the two writers' lines interleave in call order. */
    int r1 = __ompcc_puts("puts line");
    fflush(stdout);
    int r2 = puts("puts line");
    check(r1 == r2, "puts", r1);
    r1 = __ompcc_puts("");
    fflush(stdout);
    r2 = puts("");
    check(r1 == r2, "puts empty", r1);
    r1 = __ompcc_putchar('x' + 256);
    fflush(stdout);
    r2 = putchar('x' + 256);
    check(r1 == r2, "putchar", r1);
    r1 = __ompcc_putchar('\n');
    fflush(stdout);
    r2 = putchar('\n');
    check(r1 == r2, "putchar newline", r1);
    printf("strerror: %ld checks, %d mismatches\n", checks, fails);
    return fails != 0;
}
