/* <ctype.h> of the ompcc device C library (ctype.c), "C" locale. */
#ifndef OMPCC_CTYPE_H
#define OMPCC_CTYPE_H

const unsigned short **__ompcc___ctype_b_loc(void);
const int **__ompcc___ctype_tolower_loc(void);
const int **__ompcc___ctype_toupper_loc(void);
int __ompcc_isupper(int c);
int __ompcc_islower(int c);
int __ompcc_isalpha(int c);
int __ompcc_isdigit(int c);
int __ompcc_isxdigit(int c);
int __ompcc_isspace(int c);
int __ompcc_isprint(int c);
int __ompcc_isgraph(int c);
int __ompcc_isblank(int c);
int __ompcc_iscntrl(int c);
int __ompcc_ispunct(int c);
int __ompcc_isalnum(int c);
int __ompcc_tolower(int c);
int __ompcc_toupper(int c);

#endif
