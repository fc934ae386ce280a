/* The <string.h> functions of the ompcc device C library: byte-at-a-time loops, exact by
 * construction (the result is bit for bit what glibc returns). size_t is spelled
 * `unsigned long` because the library includes no system header (LP64 on host and device).
 * Comparisons order bytes as unsigned char (C11 7.24.4) and return the difference of the
 * first differing bytes, the value glibc's x86-64 versions return. */
#include "ompcc_string.h"

void *__ompcc_memcpy(void *restrict dst, const void *restrict src, unsigned long n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (unsigned long i = 0; i < n; i++) {
        d[i] = s[i];
    }
    return dst;
}

void *__ompcc_memmove(void *dst, const void *src, unsigned long n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        for (unsigned long i = 0; i < n; i++) {
            d[i] = s[i];
        }
    } else {
        for (unsigned long i = n; i > 0; i--) {
            d[i - 1] = s[i - 1];
        }
    }
    return dst;
}

void *__ompcc_memset(void *dst, int c, unsigned long n) {
    unsigned char *d = dst;
    for (unsigned long i = 0; i < n; i++) {
        d[i] = (unsigned char)c;
    }
    return dst;
}

int __ompcc_memcmp(const void *a, const void *b, unsigned long n) {
    const unsigned char *x = a;
    const unsigned char *y = b;
    for (unsigned long i = 0; i < n; i++) {
        if (x[i] != y[i]) {
            return x[i] - y[i];
        }
    }
    return 0;
}

void *__ompcc_memchr(const void *p, int c, unsigned long n) {
    const unsigned char *s = p;
    for (unsigned long i = 0; i < n; i++) {
        if (s[i] == (unsigned char)c) {
            return (void *)(s + i);
        }
    }
    return 0;
}

unsigned long __ompcc_strlen(const char *s) {
    unsigned long n = 0;
    while (s[n] != 0) {
        n++;
    }
    return n;
}

unsigned long __ompcc_strnlen(const char *s, unsigned long max) {
    unsigned long n = 0;
    while (n < max && s[n] != 0) {
        n++;
    }
    return n;
}

int __ompcc_strcmp(const char *a, const char *b) {
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    while (*x != 0 && *x == *y) {
        x++;
        y++;
    }
    return *x - *y;
}

int __ompcc_strncmp(const char *a, const char *b, unsigned long n) {
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    for (unsigned long i = 0; i < n; i++) {
        if (x[i] != y[i] || x[i] == 0) {
            return x[i] - y[i];
        }
    }
    return 0;
}

char *__ompcc_strcpy(char *restrict dst, const char *restrict src) {
    unsigned long i = 0;
    do {
        dst[i] = src[i];
    } while (src[i++] != 0);
    return dst;
}

/* Copies at most n bytes and pads with zero bytes up to n, like C11 7.24.2.4. */
char *__ompcc_strncpy(char *restrict dst, const char *restrict src, unsigned long n) {
    unsigned long i = 0;
    for (; i < n && src[i] != 0; i++) {
        dst[i] = src[i];
    }
    for (; i < n; i++) {
        dst[i] = 0;
    }
    return dst;
}

char *__ompcc_strcat(char *restrict dst, const char *restrict src) {
    __ompcc_strcpy(dst + __ompcc_strlen(dst), src);
    return dst;
}

char *__ompcc_strncat(char *restrict dst, const char *restrict src, unsigned long n) {
    char *d = dst + __ompcc_strlen(dst);
    unsigned long i = 0;
    for (; i < n && src[i] != 0; i++) {
        d[i] = src[i];
    }
    d[i] = 0;
    return dst;
}

/* The terminating zero byte counts as part of the string (strchr(s, 0) finds it). */
char *__ompcc_strchr(const char *s, int c) {
    for (;; s++) {
        if (*s == (char)c) {
            return (char *)s;
        }
        if (*s == 0) {
            return 0;
        }
    }
}

char *__ompcc_strrchr(const char *s, int c) {
    const char *found = 0;
    for (;; s++) {
        if (*s == (char)c) {
            found = s;
        }
        if (*s == 0) {
            return (char *)found;
        }
    }
}

char *__ompcc_strstr(const char *hay, const char *needle) {
    unsigned long n = __ompcc_strlen(needle);
    for (; *hay != 0 || n == 0; hay++) {
        if (__ompcc_strncmp(hay, needle, n) == 0) {
            return (char *)hay;
        }
        if (*hay == 0) {
            break;
        }
    }
    return 0;
}

/* The device library's allocator (heap.c): the copy can be freed and reallocated. */
void *__ompcc_malloc(unsigned long size);

char *__ompcc_strdup(const char *s) {
    return __ompcc_strndup(s, (unsigned long)-1);
}

/* At most n bytes of s, always terminated; 0 when the heap is exhausted. */
char *__ompcc_strndup(const char *s, unsigned long n) {
    unsigned long len = __ompcc_strnlen(s, n);
    char *p = __ompcc_malloc(len + 1);
    if (p != 0) {
        __ompcc_memcpy(p, s, len);
        p[len] = 0;
    }
    return p;
}
