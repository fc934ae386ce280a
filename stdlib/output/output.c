/* puts and putchar on the device, as the device printf: puts(s) is printf("%s\n", s) and
 * putchar(c) is printf("%c", c), exactly what C says they write to stdout (device printf
 * output reaches the host's stdout when the kernel finishes, like every device printf).
 * Return values are glibc's on success: puts returns the number of bytes written (the
 * length of s plus the newline), putchar the character as unsigned char; EOF (-1) when
 * printf fails. The formats are const character tables, not string literals (their
 * globals would share names with the user module's). */
#include "ompcc_output.h"
#include "ompcc_string.h"

int printf(const char *format, ...);

static const char ompcc_puts_format[] = "%s\n";
static const char ompcc_putchar_format[] = "%c";

int __ompcc_puts(const char *s) {
    if (printf(ompcc_puts_format, s) < 0) {
        return -1;
    }
    unsigned long n = __ompcc_strlen(s) + 1;
    return n > 0x7fffffffUL ? 0x7fffffff : (int)n;
}

int __ompcc_putchar(int c) {
    unsigned char u = (unsigned char)c;
    if (printf(ompcc_putchar_format, (int)u) < 0) {
        return -1;
    }
    return u;
}
