/* <stdlib.h> functions of the ompcc device C library (stdlib.c, heap.c). size_t is spelled
 * `unsigned long`: the library includes no system header. */
#ifndef OMPCC_STDLIB_H
#define OMPCC_STDLIB_H

void *__ompcc_malloc(unsigned long size);
void *__ompcc_aligned_alloc(unsigned long align, unsigned long size);
void __ompcc_free(void *p);
void *__ompcc_realloc(void *p, unsigned long size);
int __ompcc_posix_memalign(void **out, unsigned long align, unsigned long size);
void *__ompcc_calloc(unsigned long n, unsigned long size);
void __ompcc_qsort(void *base, unsigned long n, unsigned long size,
                   int (*cmp)(const void *, const void *));
void *__ompcc_bsearch(const void *key, const void *base, unsigned long n, unsigned long size,
                      int (*cmp)(const void *, const void *));
long __ompcc_strtol(const char *restrict s, char **restrict end, int base);
long long __ompcc_strtoll(const char *restrict s, char **restrict end, int base);
unsigned long __ompcc_strtoul(const char *restrict s, char **restrict end, int base);
unsigned long long __ompcc_strtoull(const char *restrict s, char **restrict end, int base);
int __ompcc_atoi(const char *s);
long __ompcc_atol(const char *s);
long long __ompcc_atoll(const char *s);
/* The conversions on narrow (width 1) or wide (width 4) strings, storing the length of the
 * number (0: none) in *end, for wcstol and friends. */
long long __ompcc_i_strtoll(const void *s, int width, long *end, int base);
unsigned long long __ompcc_i_strtoull(const void *s, int width, long *end, int base);

/* strtod.c; the __ompcc_i_ forms read narrow (width 1) or wide (width 4) strings and store
 * the length of the number (0: none) in *end, for wcstod and wcstof. */
double __ompcc_strtod(const char *restrict s, char **restrict end);
float __ompcc_strtof(const char *restrict s, char **restrict end);
double __ompcc_atof(const char *s);
double __ompcc_i_strtod(const void *s, int width, long *end);
float __ompcc_i_strtof(const void *s, int width, long *end);

#endif
