/* The <string.h> functions of the ompcc device C library (string.c). size_t is spelled
 * `unsigned long`: the library includes no system header. */
#ifndef OMPCC_STRING_H
#define OMPCC_STRING_H

void *__ompcc_memcpy(void *restrict dst, const void *restrict src, unsigned long n);
void *__ompcc_memmove(void *dst, const void *src, unsigned long n);
void *__ompcc_memset(void *dst, int c, unsigned long n);
int __ompcc_memcmp(const void *a, const void *b, unsigned long n);
void *__ompcc_memchr(const void *p, int c, unsigned long n);
unsigned long __ompcc_strlen(const char *s);
unsigned long __ompcc_strnlen(const char *s, unsigned long max);
int __ompcc_strcmp(const char *a, const char *b);
int __ompcc_strncmp(const char *a, const char *b, unsigned long n);
char *__ompcc_strcpy(char *restrict dst, const char *restrict src);
char *__ompcc_strncpy(char *restrict dst, const char *restrict src, unsigned long n);
char *__ompcc_strcat(char *restrict dst, const char *restrict src);
char *__ompcc_strncat(char *restrict dst, const char *restrict src, unsigned long n);
char *__ompcc_strchr(const char *s, int c);
char *__ompcc_strrchr(const char *s, int c);
char *__ompcc_strstr(const char *hay, const char *needle);
char *__ompcc_strdup(const char *s);
char *__ompcc_strndup(const char *s, unsigned long n);

/* strerror.c */
char *__ompcc_strerror(int e);

#endif
