/* errno of the ompcc device C library (errno.c). glibc's <errno.h> defines errno as
 * `(*__errno_location ())`, so device code reaching errno calls `__ompcc___errno_location`.
 * The error numbers are Linux's (the values glibc's headers give on the host). */
#ifndef OMPCC_ERRNO_H
#define OMPCC_ERRNO_H

#define OMPCC_EINVAL 22
#define OMPCC_ERANGE 34

int *__ompcc___errno_location(void);

/* errno = code, for the library's functions. */
#define OMPCC_SET_ERRNO(code) (*__ompcc___errno_location() = (code))

#endif
