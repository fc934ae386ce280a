/* <wchar.h>, <wctype.h> and the multibyte conversions of <stdlib.h> in the C locale, for
 * the ompcc device C library (wchar.c). The types are spelled as glibc defines them on
 * Linux, since the library includes no system header: wchar_t is int, wint_t unsigned int,
 * size_t unsigned long, wctype_t unsigned long, wctrans_t const int *. */
#ifndef OMPCC_WCHAR_H
#define OMPCC_WCHAR_H

unsigned long __ompcc_wcslen(const int *s);
int *__ompcc_wcscpy(int *restrict dst, const int *restrict src);
int *__ompcc_wcsncpy(int *restrict dst, const int *restrict src, unsigned long n);
int *__ompcc_wcscat(int *restrict dst, const int *restrict src);
int *__ompcc_wcsncat(int *restrict dst, const int *restrict src, unsigned long n);
int __ompcc_wcscmp(const int *a, const int *b);
int __ompcc_wcsncmp(const int *a, const int *b, unsigned long n);
int *__ompcc_wcschr(const int *s, int c);
int *__ompcc_wcsrchr(const int *s, int c);
int *__ompcc_wcsstr(const int *hay, const int *needle);
unsigned long __ompcc_wcsspn(const int *s, const int *accept);
unsigned long __ompcc_wcscspn(const int *s, const int *reject);
int *__ompcc_wcspbrk(const int *s, const int *accept);
int *__ompcc_wcstok(int *restrict s, const int *restrict delim, int **restrict save);
int *__ompcc_wmemcpy(int *restrict dst, const int *restrict src, unsigned long n);
int *__ompcc_wmemmove(int *dst, const int *src, unsigned long n);
int *__ompcc_wmemset(int *dst, int c, unsigned long n);
int __ompcc_wmemcmp(const int *a, const int *b, unsigned long n);
int *__ompcc_wmemchr(const int *s, int c, unsigned long n);

int __ompcc_iswalnum(unsigned int c);
int __ompcc_iswalpha(unsigned int c);
int __ompcc_iswblank(unsigned int c);
int __ompcc_iswcntrl(unsigned int c);
int __ompcc_iswdigit(unsigned int c);
int __ompcc_iswgraph(unsigned int c);
int __ompcc_iswlower(unsigned int c);
int __ompcc_iswprint(unsigned int c);
int __ompcc_iswpunct(unsigned int c);
int __ompcc_iswspace(unsigned int c);
int __ompcc_iswupper(unsigned int c);
int __ompcc_iswxdigit(unsigned int c);
unsigned int __ompcc_towlower(unsigned int c);
unsigned int __ompcc_towupper(unsigned int c);
unsigned long __ompcc_wctype(const char *name);
int __ompcc_iswctype(unsigned int c, unsigned long desc);
const int *__ompcc_wctrans(const char *name);
unsigned int __ompcc_towctrans(unsigned int c, const int *desc);

long __ompcc_wcstol(const int *restrict s, int **restrict end, int base);
unsigned long __ompcc_wcstoul(const int *restrict s, int **restrict end, int base);
long long __ompcc_wcstoll(const int *restrict s, int **restrict end, int base);
unsigned long long __ompcc_wcstoull(const int *restrict s, int **restrict end, int base);
double __ompcc_wcstod(const int *restrict s, int **restrict end);
float __ompcc_wcstof(const int *restrict s, int **restrict end);

unsigned long __ompcc_wcstombs(char *restrict dst, const int *restrict src, unsigned long n);
unsigned long __ompcc_mbstowcs(int *restrict dst, const char *restrict src, unsigned long n);
int __ompcc_mbtowc(int *restrict wc, const char *restrict s, unsigned long n);
int __ompcc_wctomb(char *s, int wc);

#endif
