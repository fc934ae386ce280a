/* puts and putchar of the ompcc device C library (output.c). */
#ifndef OMPCC_OUTPUT_H
#define OMPCC_OUTPUT_H

int __ompcc_puts(const char *s);
int __ompcc_putchar(int c);

#endif
