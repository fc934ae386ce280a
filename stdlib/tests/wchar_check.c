/* Compares the device library's wide-string functions (stdlib/wchar/wchar.c compiled for the
 * host) with glibc's in the C locale: the wcs and wmem functions on random short strings over
 * a small alphabet (so matches and ties are common, with negative and large characters),
 * every <wctype.h> class and case map on the first 0x30000 codes and around the ends of the
 * range, wctype/iswctype and wctrans/towctrans by name, wcstol/wcstoul/wcstoll/wcstoull/
 * wcstod/wcstof (value, end and errno), and the multibyte conversions. Exits non-zero on a
 * mismatch. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#include "ompcc_errno.h"
#include "ompcc_wchar.h"

static int fails;
static long checks;
static void check(int ok, const char *what, long detail) {
    checks++;
    if (!ok && fails++ < 20) printf("mismatch: %s (%ld)\n", what, detail);
}
/* Comparisons agree in sign, which is all C specifies: glibc's value depends on the
 * implementation its ifunc picks for the CPU. */
static int sign(long v) {
    return (v > 0) - (v < 0);
}
static unsigned long rng = 2463534242ul;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static const wchar_t alphabet[] = {L'a', L'b', L'c', L' ', L',', -5, 0x10ffff, 0x7fffffff,
                                   (wchar_t)0x80000000, 200};
static void random_wide(wchar_t *s, int max) {
    int n = (int)rnd((unsigned)max);
    for (int i = 0; i < n; i++) s[i] = alphabet[rnd(sizeof alphabet / sizeof alphabet[0])];
    s[n] = 0;
}

static const char *num_pieces[] = {" ", "\t", "+", "-", "0", "0x", "1", "9", "f", "e5", "e-400",
                                   ".", "5", "99999999999999999999", "inf", "nan", "1e309", "p3"};

static const char *classes[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower",
                                "print", "punct", "space", "upper", "xdigit", "", "Alpha",
                                "alphabet", "alph"};

int main(void) {
    setlocale(LC_ALL, "C");
    wchar_t a[40], b[40], c[80], d[80];
    for (int r = 0; r < 30000; r++) {
        random_wide(a, 8);
        random_wide(b, 4);
        size_t n = rnd(10);
        check(__ompcc_wcslen(a) == wcslen(a), "wcslen", r);
        check(sign(__ompcc_wcscmp(a, b)) == sign(wcscmp(a, b)), "wcscmp", r);
        check(sign(__ompcc_wcsncmp(a, b, n)) == sign(wcsncmp(a, b, n)), "wcsncmp", r);
        size_t m = n < wcslen(a) + 1 && n < wcslen(b) + 1 ? n : 0;
        check(sign(__ompcc_wmemcmp(a, b, m)) == sign(wmemcmp(a, b, m)), "wmemcmp", r);
        wchar_t ch = alphabet[rnd(sizeof alphabet / sizeof alphabet[0])];
        if (rnd(5) == 0) ch = 0;
        check(__ompcc_wcschr(a, ch) == wcschr(a, ch), "wcschr", r);
        check(__ompcc_wcsrchr(a, ch) == wcsrchr(a, ch), "wcsrchr", r);
        check(__ompcc_wmemchr(a, ch, wcslen(a)) == wmemchr(a, ch, wcslen(a)), "wmemchr", r);
        check(__ompcc_wcsstr(a, b) == wcsstr(a, b), "wcsstr", r);
        check(__ompcc_wcsspn(a, b) == wcsspn(a, b), "wcsspn", r);
        check(__ompcc_wcscspn(a, b) == wcscspn(a, b), "wcscspn", r);
        check(__ompcc_wcspbrk(a, b) == wcspbrk(a, b), "wcspbrk", r);
        /* Copies: whole buffers compared, padding included. */
        wmemset(c, 7, 80);
        wmemset(d, 7, 80);
        check(__ompcc_wcsncpy(c, a, n) == c && wcsncpy(d, a, n) == d && !wmemcmp(c, d, 80),
              "wcsncpy", r);
        check(__ompcc_wcscpy(c, a) == c && wcscpy(d, a) == d && !wmemcmp(c, d, 80), "wcscpy", r);
        check(__ompcc_wcscat(c, b) == c && wcscat(d, b) == d && !wmemcmp(c, d, 80), "wcscat", r);
        check(__ompcc_wcsncat(c, a, n) == c && wcsncat(d, a, n) == d && !wmemcmp(c, d, 80),
              "wcsncat", r);
        check(__ompcc_wmemcpy(c + 3, a, n) == c + 3 && wmemcpy(d + 3, a, n) == d + 3 &&
                  !wmemcmp(c, d, 80),
              "wmemcpy", r);
        size_t from = rnd(20), to = rnd(20);
        check(__ompcc_wmemmove(c + to, c + from, n) == c + to &&
                  wmemmove(d + to, d + from, n) == d + to && !wmemcmp(c, d, 80),
              "wmemmove", r);
        check(__ompcc_wmemset(c + 1, ch, n) == c + 1 && wmemset(d + 1, ch, n) == d + 1 &&
                  !wmemcmp(c, d, 80),
              "wmemset", r);
        /* wcstok over the same string twice. */
        wcscpy(c, a);
        wcscpy(d, a);
        wchar_t *s1, *s2, *t1, *t2;
        t1 = __ompcc_wcstok(c, b, &s1);
        t2 = wcstok(d, b, &s2);
        for (int k = 0; k < 10; k++) {
            check((t1 == 0 && t2 == 0) || (t1 && t2 && t1 - c == t2 - d), "wcstok", r);
            if (t1 == 0 || t2 == 0) break;
            t1 = __ompcc_wcstok(0, b, &s1);
            t2 = wcstok(0, b, &s2);
        }
        check(!wmemcmp(c, d, 40), "wcstok writes", r);
    }
    for (long k = -3; k < 0x30000; k++) {
        wint_t w = (wint_t)(k < 0 ? 0xffffffffu + 1 + k : k);
        check(!!__ompcc_iswalnum(w) == !!iswalnum(w), "iswalnum", k);
        check(!!__ompcc_iswalpha(w) == !!iswalpha(w), "iswalpha", k);
        check(!!__ompcc_iswblank(w) == !!iswblank(w), "iswblank", k);
        check(!!__ompcc_iswcntrl(w) == !!iswcntrl(w), "iswcntrl", k);
        check(!!__ompcc_iswdigit(w) == !!iswdigit(w), "iswdigit", k);
        check(!!__ompcc_iswgraph(w) == !!iswgraph(w), "iswgraph", k);
        check(!!__ompcc_iswlower(w) == !!iswlower(w), "iswlower", k);
        check(!!__ompcc_iswprint(w) == !!iswprint(w), "iswprint", k);
        check(!!__ompcc_iswpunct(w) == !!iswpunct(w), "iswpunct", k);
        check(!!__ompcc_iswspace(w) == !!iswspace(w), "iswspace", k);
        check(!!__ompcc_iswupper(w) == !!iswupper(w), "iswupper", k);
        check(!!__ompcc_iswxdigit(w) == !!iswxdigit(w), "iswxdigit", k);
        check(__ompcc_towlower(w) == towlower(w), "towlower", k);
        check(__ompcc_towupper(w) == towupper(w), "towupper", k);
        for (unsigned i = 0; i < sizeof classes / sizeof classes[0]; i += 1 + (k & 3)) {
            wctype_t t = wctype(classes[i]);
            unsigned long o = __ompcc_wctype(classes[i]);
            check((t == 0) == (o == 0), "wctype", i);
            if (t != 0) check(!!__ompcc_iswctype(w, o) == !!iswctype(w, t), "iswctype", k);
        }
        check(__ompcc_towctrans(w, __ompcc_wctrans("tolower")) ==
                  towctrans(w, wctrans("tolower")),
              "towctrans tolower", k);
        check(__ompcc_towctrans(w, __ompcc_wctrans("toupper")) ==
                  towctrans(w, wctrans("toupper")),
              "towctrans toupper", k);
    }
    check(__ompcc_wctrans("toLower") == 0 && wctrans("toLower") == 0, "wctrans unknown", 0);
    for (int r = 0; r < 30000; r++) {
        char s[128] = "";
        for (unsigned k = 0, n = 1 + rnd(5); k < n; k++)
            strcat(s, num_pieces[rnd(sizeof num_pieces / sizeof num_pieces[0])]);
        wchar_t w[128];
        size_t len = strlen(s);
        for (size_t i = 0; i <= len; i++) w[i] = (unsigned char)s[i];
        int base = (int)rnd(37);
        if (base == 1) base = 0;
        wchar_t *e1, *e2;
#define SAME(ours, theirs)                                                                     \
    (*__ompcc___errno_location() = 0, errno = 0, (ours) == (theirs) && e1 == e2 &&             \
                                                     *__ompcc___errno_location() == errno)
        check(SAME(__ompcc_wcstol(w, &e1, base), wcstol(w, &e2, base)), "wcstol", r);
        check(SAME(__ompcc_wcstoul(w, &e1, base), wcstoul(w, &e2, base)), "wcstoul", r);
        check(SAME(__ompcc_wcstoll(w, &e1, base), wcstoll(w, &e2, base)), "wcstoll", r);
        check(SAME(__ompcc_wcstoull(w, &e1, base), wcstoull(w, &e2, base)), "wcstoull", r);
        *__ompcc___errno_location() = 0;
        errno = 0;
        double x = __ompcc_wcstod(w, &e1), y = wcstod(w, &e2);
        check(!memcmp(&x, &y, sizeof x) && e1 == e2 && *__ompcc___errno_location() == errno,
              "wcstod", r);
        *__ompcc___errno_location() = 0;
        errno = 0;
        float xf = __ompcc_wcstof(w, &e1), yf = wcstof(w, &e2);
        check(!memcmp(&xf, &yf, sizeof xf) && e1 == e2 && *__ompcc___errno_location() == errno,
              "wcstof", r);
    }
    /* Multibyte: strings of mixed ASCII and high characters, every buffer size. */
    for (int r = 0; r < 20000; r++) {
        wchar_t w[12];
        char s[12];
        int n = (int)rnd(10);
        for (int i = 0; i < n; i++) {
            w[i] = rnd(8) ? (wchar_t)(1 + rnd(127)) : alphabet[rnd(10)];
            s[i] = rnd(8) ? (char)(1 + rnd(127)) : (char)(128 + rnd(128));
        }
        w[n] = 0;
        s[n] = 0;
        size_t cap = rnd(12);
        char o1[12], o2[12];
        memset(o1, 9, 12);
        memset(o2, 9, 12);
        *__ompcc___errno_location() = 0;
        errno = 0;
        size_t u = __ompcc_wcstombs(o1, w, cap), v = wcstombs(o2, w, cap);
        check(u == v && !memcmp(o1, o2, 12) && *__ompcc___errno_location() == errno,
              "wcstombs", r);
        check(__ompcc_wcstombs(0, w, 0) == wcstombs(0, w, 0), "wcstombs count", r);
        wchar_t v1[12], v2[12];
        wmemset(v1, 9, 12);
        wmemset(v2, 9, 12);
        *__ompcc___errno_location() = 0;
        errno = 0;
        u = __ompcc_mbstowcs(v1, s, cap);
        v = mbstowcs(v2, s, cap);
        check(u == v && !wmemcmp(v1, v2, 12) && *__ompcc___errno_location() == errno,
              "mbstowcs", r);
        check(__ompcc_mbstowcs(0, s, 0) == mbstowcs(0, s, 0), "mbstowcs count", r);
        wchar_t c1 = 5, c2 = 5;
        size_t k = rnd(3);
        *__ompcc___errno_location() = 0;
        errno = 0;
        int i1 = __ompcc_mbtowc(&c1, s, k), i2 = mbtowc(&c2, s, k);
        check(i1 == i2 && c1 == c2 && *__ompcc___errno_location() == errno, "mbtowc", r);
        char b1[8] = {0}, b2[8] = {0};
        *__ompcc___errno_location() = 0;
        errno = 0;
        i1 = __ompcc_wctomb(b1, w[0]);
        i2 = wctomb(b2, w[0]);
        check(i1 == i2 && !memcmp(b1, b2, 8) && *__ompcc___errno_location() == errno, "wctomb",
              r);
    }
    check(__ompcc_mbtowc(0, 0, 0) == mbtowc(0, 0, 0) && __ompcc_wctomb(0, 0) == wctomb(0, 0),
          "stateless", 0);
    printf("wchar: %ld checks, %d mismatches\n", checks, fails);
    return fails != 0;
}
