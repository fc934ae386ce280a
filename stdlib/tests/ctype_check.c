/* Compares the device library's <ctype.h> ("C" locale, ctype/ctype.c compiled for the host)
 * with glibc's in the "C" locale: the class, tolower and toupper tables over their whole
 * index range -128..255, and every function on -129..256. Exits non-zero on a mismatch. */
#include <ctype.h>
#include <stdio.h>
#include "ompcc_ctype.h"

static int fails;
static void check(int ok, const char *what, int c) {
    if (!ok && fails++ < 20) printf("mismatch: %s(%d)\n", what, c);
}

int main(void) {
    const unsigned short *cls = *__ctype_b_loc(), *ours = *__ompcc___ctype_b_loc();
    const int *lo = *__ctype_tolower_loc(), *our_lo = *__ompcc___ctype_tolower_loc();
    const int *up = *__ctype_toupper_loc(), *our_up = *__ompcc___ctype_toupper_loc();
    for (int c = -128; c < 256; c++) {
        check(cls[c] == ours[c], "class table", c);
        check(lo[c] == our_lo[c], "tolower table", c);
        check(up[c] == our_up[c], "toupper table", c);
    }
    /* (f)(c) calls the functions, not glibc's macros. */
    for (int c = -129; c <= 256; c++) {
        int in_range = c >= -128 && c < 256;
        if (!in_range) {
            /* glibc's functions index outside the table there (undefined); ours return 0. */
            check(!__ompcc_isalpha(c) && __ompcc_tolower(c) == c, "out of range", c);
            continue;
        }
        check(!(isupper)(c) == !__ompcc_isupper(c), "isupper", c);
        check(!(islower)(c) == !__ompcc_islower(c), "islower", c);
        check(!(isalpha)(c) == !__ompcc_isalpha(c), "isalpha", c);
        check(!(isdigit)(c) == !__ompcc_isdigit(c), "isdigit", c);
        check(!(isxdigit)(c) == !__ompcc_isxdigit(c), "isxdigit", c);
        check(!(isspace)(c) == !__ompcc_isspace(c), "isspace", c);
        check(!(isprint)(c) == !__ompcc_isprint(c), "isprint", c);
        check(!(isgraph)(c) == !__ompcc_isgraph(c), "isgraph", c);
        check(!(isblank)(c) == !__ompcc_isblank(c), "isblank", c);
        check(!(iscntrl)(c) == !__ompcc_iscntrl(c), "iscntrl", c);
        check(!(ispunct)(c) == !__ompcc_ispunct(c), "ispunct", c);
        check(!(isalnum)(c) == !__ompcc_isalnum(c), "isalnum", c);
        check((tolower)(c) == __ompcc_tolower(c), "tolower", c);
        check((toupper)(c) == __ompcc_toupper(c), "toupper", c);
    }
    printf("ctype: %d mismatches\n", fails);
    return fails != 0;
}
