/* The <stdio.h> string formatting functions of the ompcc device C library (stdio.c).
 * size_t is spelled `unsigned long` and va_list `__builtin_va_list`: the library includes
 * no system header. On the device these are ordinary variadic functions of ompcc's varargs
 * ABI (compiler/lower/src/varargs.rs). */
#ifndef OMPCC_STDIO_H
#define OMPCC_STDIO_H

int __ompcc_vsnprintf(char *restrict s, unsigned long n, const char *restrict fmt,
                      __builtin_va_list ap);
int __ompcc_snprintf(char *restrict s, unsigned long n, const char *restrict fmt, ...);
int __ompcc_vsprintf(char *restrict s, const char *restrict fmt, __builtin_va_list ap);
int __ompcc_sprintf(char *restrict s, const char *restrict fmt, ...);

#endif
