/* Wide strings in the C locale for the ompcc device C library: the <wchar.h> string and
 * memory functions (wchar_t is a 4-byte int on Linux, compared as such), <wctype.h> with
 * glibc's C-locale classes and case maps (ASCII only: every code above 127 is in no class and
 * maps to itself), wcstol/wcstoul/wcstoll/wcstoull/wcstod/wcstof (the narrow conversions'
 * code reading 4-byte characters), and the multibyte conversions of the C locale, whose
 * character set is ASCII: bytes and wide characters below 128 convert to themselves,
 * anything else fails with EILSEQ, as glibc's do. */
#include "ompcc_ctype.h"
#include "ompcc_errno.h"
#include "ompcc_stdlib.h"
#include "ompcc_wchar.h"

unsigned long __ompcc_wcslen(const int *s) {
    unsigned long n = 0;
    while (s[n] != 0) {
        n++;
    }
    return n;
}

int *__ompcc_wcscpy(int *restrict dst, const int *restrict src) {
    unsigned long i = 0;
    do {
        dst[i] = src[i];
    } while (src[i++] != 0);
    return dst;
}

/* Copies at most n characters and pads with zeros to n, as strncpy does. */
int *__ompcc_wcsncpy(int *restrict dst, const int *restrict src, unsigned long n) {
    unsigned long i = 0;
    for (; i < n && src[i] != 0; i++) {
        dst[i] = src[i];
    }
    for (; i < n; i++) {
        dst[i] = 0;
    }
    return dst;
}

int *__ompcc_wcscat(int *restrict dst, const int *restrict src) {
    __ompcc_wcscpy(dst + __ompcc_wcslen(dst), src);
    return dst;
}

int *__ompcc_wcsncat(int *restrict dst, const int *restrict src, unsigned long n) {
    int *d = dst + __ompcc_wcslen(dst);
    unsigned long i = 0;
    for (; i < n && src[i] != 0; i++) {
        d[i] = src[i];
    }
    d[i] = 0;
    return dst;
}

/* -1, 0 or 1 by the first differing characters as (signed) wchar_t values: glibc's result. */
static int wide_order(int a, int b) {
    return a < b ? -1 : a > b;
}

int __ompcc_wcscmp(const int *a, const int *b) {
    unsigned long i = 0;
    while (a[i] == b[i] && a[i] != 0) {
        i++;
    }
    return wide_order(a[i], b[i]);
}

int __ompcc_wcsncmp(const int *a, const int *b, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) {
        if (a[i] != b[i] || a[i] == 0) {
            return wide_order(a[i], b[i]);
        }
    }
    return 0;
}

/* The terminating zero is part of the string: wcschr(s, 0) finds it. */
int *__ompcc_wcschr(const int *s, int c) {
    for (;; s++) {
        if (*s == c) {
            return (int *)s;
        }
        if (*s == 0) {
            return 0;
        }
    }
}

int *__ompcc_wcsrchr(const int *s, int c) {
    const int *found = 0;
    for (;; s++) {
        if (*s == c) {
            found = s;
        }
        if (*s == 0) {
            return (int *)found;
        }
    }
}

int *__ompcc_wcsstr(const int *hay, const int *needle) {
    unsigned long n = __ompcc_wcslen(needle);
    for (; ; hay++) {
        unsigned long i = 0;
        while (i < n && hay[i] == needle[i]) {
            i++;
        }
        if (i == n) {
            return (int *)hay;
        }
        if (*hay == 0) {
            return 0;
        }
    }
}

static int wide_in(int c, const int *set) {
    for (; *set != 0; set++) {
        if (*set == c) {
            return 1;
        }
    }
    return 0;
}

unsigned long __ompcc_wcsspn(const int *s, const int *accept) {
    unsigned long n = 0;
    while (s[n] != 0 && wide_in(s[n], accept)) {
        n++;
    }
    return n;
}

unsigned long __ompcc_wcscspn(const int *s, const int *reject) {
    unsigned long n = 0;
    while (s[n] != 0 && !wide_in(s[n], reject)) {
        n++;
    }
    return n;
}

int *__ompcc_wcspbrk(const int *s, const int *accept) {
    s += __ompcc_wcscspn(s, accept);
    return *s != 0 ? (int *)s : 0;
}

/* C11 7.29.4.5.7: the tokens of s (or, when s is null, of the rest kept in *save). */
int *__ompcc_wcstok(int *restrict s, const int *restrict delim, int **restrict save) {
    if (s == 0) {
        s = *save;
    }
    s += __ompcc_wcsspn(s, delim);
    if (*s == 0) {
        *save = s;
        return 0;
    }
    int *end = s + __ompcc_wcscspn(s, delim);
    if (*end != 0) {
        *end = 0;
        *save = end + 1;
    } else {
        *save = end;
    }
    return s;
}

int *__ompcc_wmemcpy(int *restrict dst, const int *restrict src, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) {
        dst[i] = src[i];
    }
    return dst;
}

int *__ompcc_wmemmove(int *dst, const int *src, unsigned long n) {
    if (dst < src) {
        for (unsigned long i = 0; i < n; i++) {
            dst[i] = src[i];
        }
    } else {
        for (unsigned long i = n; i > 0; i--) {
            dst[i - 1] = src[i - 1];
        }
    }
    return dst;
}

int *__ompcc_wmemset(int *dst, int c, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) {
        dst[i] = c;
    }
    return dst;
}

int __ompcc_wmemcmp(const int *a, const int *b, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return wide_order(a[i], b[i]);
        }
    }
    return 0;
}

int *__ompcc_wmemchr(const int *s, int c, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) {
        if (s[i] == c) {
            return (int *)(s + i);
        }
    }
    return 0;
}

/* ----- <wctype.h>: the <ctype.h> classes on ASCII, nothing above ----- */

int __ompcc_iswalnum(unsigned int c) {
    return c < 128 && __ompcc_isalnum((int)c) != 0;
}

int __ompcc_iswalpha(unsigned int c) {
    return c < 128 && __ompcc_isalpha((int)c) != 0;
}

int __ompcc_iswblank(unsigned int c) {
    return c < 128 && __ompcc_isblank((int)c) != 0;
}

int __ompcc_iswcntrl(unsigned int c) {
    return c < 128 && __ompcc_iscntrl((int)c) != 0;
}

int __ompcc_iswdigit(unsigned int c) {
    return c - '0' < 10;
}

int __ompcc_iswgraph(unsigned int c) {
    return c < 128 && __ompcc_isgraph((int)c) != 0;
}

int __ompcc_iswlower(unsigned int c) {
    return c < 128 && __ompcc_islower((int)c) != 0;
}

int __ompcc_iswprint(unsigned int c) {
    return c < 128 && __ompcc_isprint((int)c) != 0;
}

int __ompcc_iswpunct(unsigned int c) {
    return c < 128 && __ompcc_ispunct((int)c) != 0;
}

int __ompcc_iswspace(unsigned int c) {
    return c < 128 && __ompcc_isspace((int)c) != 0;
}

int __ompcc_iswupper(unsigned int c) {
    return c < 128 && __ompcc_isupper((int)c) != 0;
}

int __ompcc_iswxdigit(unsigned int c) {
    return c < 128 && __ompcc_isxdigit((int)c) != 0;
}

unsigned int __ompcc_towlower(unsigned int c) {
    return c - 'A' < 26 ? c + ('a' - 'A') : c;
}

unsigned int __ompcc_towupper(unsigned int c) {
    return c - 'a' < 26 ? c - ('a' - 'A') : c;
}

/* The class names wctype knows, in the order of its descriptors 1 to 12 (0: unknown). */
static const char ompcc_wctype_names[12][7] = {"alnum", "alpha", "blank", "cntrl",
                                               "digit", "graph", "lower", "print",
                                               "punct", "space", "upper", "xdigit"};

/* Whether the C string s equals the table name n. */
static int same_name(const char *s, const char *n) {
    unsigned long i = 0;
    while (s[i] == n[i] && n[i] != 0) {
        i++;
    }
    return s[i] == n[i];
}

unsigned long __ompcc_wctype(const char *name) {
    for (unsigned long i = 0; i < 12; i++) {
        if (same_name(name, ompcc_wctype_names[i])) {
            return i + 1;
        }
    }
    return 0;
}

int __ompcc_iswctype(unsigned int c, unsigned long desc) {
    switch (desc) {
    case 1:
        return __ompcc_iswalnum(c);
    case 2:
        return __ompcc_iswalpha(c);
    case 3:
        return __ompcc_iswblank(c);
    case 4:
        return __ompcc_iswcntrl(c);
    case 5:
        return __ompcc_iswdigit(c);
    case 6:
        return __ompcc_iswgraph(c);
    case 7:
        return __ompcc_iswlower(c);
    case 8:
        return __ompcc_iswprint(c);
    case 9:
        return __ompcc_iswpunct(c);
    case 10:
        return __ompcc_iswspace(c);
    case 11:
        return __ompcc_iswupper(c);
    case 12:
        return __ompcc_iswxdigit(c);
    default:
        return 0;
    }
}

/* wctrans descriptors point into this table: [0] maps to lower case, [1] to upper. */
static const int ompcc_wctrans_maps[2] = {0, 1};
static const char ompcc_wctrans_names[2][8] = {"tolower", "toupper"};

const int *__ompcc_wctrans(const char *name) {
    for (int i = 0; i < 2; i++) {
        if (same_name(name, ompcc_wctrans_names[i])) {
            return &ompcc_wctrans_maps[i];
        }
    }
    return 0;
}

unsigned int __ompcc_towctrans(unsigned int c, const int *desc) {
    if (desc == 0) {
        return c;
    }
    return *desc == 0 ? __ompcc_towlower(c) : __ompcc_towupper(c);
}

/* ----- conversions to numbers ----- */

long long __ompcc_wcstoll(const int *restrict s, int **restrict end, int base) {
    long n;
    long long v = __ompcc_i_strtoll(s, 4, &n, base);
    if (end != 0) {
        *end = (int *)s + n;
    }
    return v;
}

unsigned long long __ompcc_wcstoull(const int *restrict s, int **restrict end, int base) {
    long n;
    unsigned long long v = __ompcc_i_strtoull(s, 4, &n, base);
    if (end != 0) {
        *end = (int *)s + n;
    }
    return v;
}

long __ompcc_wcstol(const int *restrict s, int **restrict end, int base) {
    return (long)__ompcc_wcstoll(s, end, base);
}

unsigned long __ompcc_wcstoul(const int *restrict s, int **restrict end, int base) {
    return (unsigned long)__ompcc_wcstoull(s, end, base);
}

double __ompcc_wcstod(const int *restrict s, int **restrict end) {
    long n;
    double v = __ompcc_i_strtod(s, 4, &n);
    if (end != 0) {
        *end = (int *)s + n;
    }
    return v;
}

float __ompcc_wcstof(const int *restrict s, int **restrict end) {
    long n;
    float v = __ompcc_i_strtof(s, 4, &n);
    if (end != 0) {
        *end = (int *)s + n;
    }
    return v;
}

/* ----- multibyte conversions of the C locale (ASCII, stateless) ----- */

#define OMPCC_EILSEQ 84

unsigned long __ompcc_wcstombs(char *restrict dst, const int *restrict src, unsigned long n) {
    unsigned long i = 0;
    for (;; i++) {
        if (dst != 0 && i >= n) {
            return i;
        }
        unsigned int c = (unsigned int)src[i];
        if (c >= 128) {
            OMPCC_SET_ERRNO(OMPCC_EILSEQ);
            return (unsigned long)-1;
        }
        if (dst != 0) {
            dst[i] = (char)c;
        }
        if (c == 0) {
            return i;
        }
    }
}

unsigned long __ompcc_mbstowcs(int *restrict dst, const char *restrict src, unsigned long n) {
    unsigned long i = 0;
    for (;; i++) {
        if (dst != 0 && i >= n) {
            return i;
        }
        unsigned char c = (unsigned char)src[i];
        if (c >= 128) {
            OMPCC_SET_ERRNO(OMPCC_EILSEQ);
            return (unsigned long)-1;
        }
        if (dst != 0) {
            dst[i] = c;
        }
        if (c == 0) {
            return i;
        }
    }
}

int __ompcc_mbtowc(int *restrict wc, const char *restrict s, unsigned long n) {
    if (s == 0) {
        return 0; /* no shift states */
    }
    unsigned char c = (unsigned char)*s;
    /* With n == 0 glibc still converts an empty string (to 0) and reports other bytes as
     * incomplete (-1 without errno): do the same. */
    if (n == 0) {
        if (c == 0 && wc != 0) {
            *wc = 0;
        }
        return c == 0 ? 0 : -1;
    }
    if (c >= 128) {
        OMPCC_SET_ERRNO(OMPCC_EILSEQ);
        return -1;
    }
    if (wc != 0) {
        *wc = c;
    }
    return c != 0;
}

int __ompcc_wctomb(char *s, int wc) {
    if (s == 0) {
        return 0;
    }
    if ((unsigned int)wc >= 128) {
        OMPCC_SET_ERRNO(OMPCC_EILSEQ);
        return -1;
    }
    *s = (char)wc;
    return 1;
}
