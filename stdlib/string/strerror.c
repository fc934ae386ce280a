/* strerror of the ompcc device C library: glibc's messages (Linux error numbers 0 to 133,
 * the text glibc 2.36's strerror returns in the C locale, generated from it), and
 * "Unknown error N" for any other number, as glibc writes it. The messages live in one
 * const character table (no string literals: their globals would share names with the
 * user module's); an unknown number is written into one buffer per device module, shared
 * by its threads like errno (C lets the next strerror call overwrite the string; two threads
 * asking at once for unknown numbers can see each other's). */
#include "ompcc_string.h"

/* The messages, each ending in a 0, and "Unknown error " last. */
static const char ompcc_errmsg[] =
    "Success\0"
    "Operation not permitted\0"
    "No such file or directory\0"
    "No such process\0"
    "Interrupted system call\0"
    "Input/output error\0"
    "No such device or address\0"
    "Argument list too long\0"
    "Exec format error\0"
    "Bad file descriptor\0"
    "No child processes\0"
    "Resource temporarily unavailable\0"
    "Cannot allocate memory\0"
    "Permission denied\0"
    "Bad address\0"
    "Block device required\0"
    "Device or resource busy\0"
    "File exists\0"
    "Invalid cross-device link\0"
    "No such device\0"
    "Not a directory\0"
    "Is a directory\0"
    "Invalid argument\0"
    "Too many open files in system\0"
    "Too many open files\0"
    "Inappropriate ioctl for device\0"
    "Text file busy\0"
    "File too large\0"
    "No space left on device\0"
    "Illegal seek\0"
    "Read-only file system\0"
    "Too many links\0"
    "Broken pipe\0"
    "Numerical argument out of domain\0"
    "Numerical result out of range\0"
    "Resource deadlock avoided\0"
    "File name too long\0"
    "No locks available\0"
    "Function not implemented\0"
    "Directory not empty\0"
    "Too many levels of symbolic links\0"
    "No message of desired type\0"
    "Identifier removed\0"
    "Channel number out of range\0"
    "Level 2 not synchronized\0"
    "Level 3 halted\0"
    "Level 3 reset\0"
    "Link number out of range\0"
    "Protocol driver not attached\0"
    "No CSI structure available\0"
    "Level 2 halted\0"
    "Invalid exchange\0"
    "Invalid request descriptor\0"
    "Exchange full\0"
    "No anode\0"
    "Invalid request code\0"
    "Invalid slot\0"
    "Bad font file format\0"
    "Device not a stream\0"
    "No data available\0"
    "Timer expired\0"
    "Out of streams resources\0"
    "Machine is not on the network\0"
    "Package not installed\0"
    "Object is remote\0"
    "Link has been severed\0"
    "Advertise error\0"
    "Srmount error\0"
    "Communication error on send\0"
    "Protocol error\0"
    "Multihop attempted\0"
    "RFS specific error\0"
    "Bad message\0"
    "Value too large for defined data type\0"
    "Name not unique on network\0"
    "File descriptor in bad state\0"
    "Remote address changed\0"
    "Can not access a needed shared library\0"
    "Accessing a corrupted shared library\0"
    ".lib section in a.out corrupted\0"
    "Attempting to link in too many shared libraries\0"
    "Cannot exec a shared library directly\0"
    "Invalid or incomplete multibyte or wide character\0"
    "Interrupted system call should be restarted\0"
    "Streams pipe error\0"
    "Too many users\0"
    "Socket operation on non-socket\0"
    "Destination address required\0"
    "Message too long\0"
    "Protocol wrong type for socket\0"
    "Protocol not available\0"
    "Protocol not supported\0"
    "Socket type not supported\0"
    "Operation not supported\0"
    "Protocol family not supported\0"
    "Address family not supported by protocol\0"
    "Address already in use\0"
    "Cannot assign requested address\0"
    "Network is down\0"
    "Network is unreachable\0"
    "Network dropped connection on reset\0"
    "Software caused connection abort\0"
    "Connection reset by peer\0"
    "No buffer space available\0"
    "Transport endpoint is already connected\0"
    "Transport endpoint is not connected\0"
    "Cannot send after transport endpoint shutdown\0"
    "Too many references: cannot splice\0"
    "Connection timed out\0"
    "Connection refused\0"
    "Host is down\0"
    "No route to host\0"
    "Operation already in progress\0"
    "Operation now in progress\0"
    "Stale file handle\0"
    "Structure needs cleaning\0"
    "Not a XENIX named type file\0"
    "No XENIX semaphores available\0"
    "Is a named type file\0"
    "Remote I/O error\0"
    "Disk quota exceeded\0"
    "No medium found\0"
    "Wrong medium type\0"
    "Operation canceled\0"
    "Required key not available\0"
    "Key has expired\0"
    "Key has been revoked\0"
    "Key was rejected by service\0"
    "Owner died\0"
    "State not recoverable\0"
    "Operation not possible due to RF-kill\0"
    "Memory page has hardware error\0"
    "Unknown error \0";

/* Where message N starts in ompcc_errmsg; 0xffff: glibc has none ("Unknown error N"). */
static const unsigned short ompcc_errmsg_at[134] = {
    0, 8, 32, 58, 74, 98, 117, 143, 166, 184, 204, 223, 256, 279, 297, 309, 331, 355, 367, 393,
    408, 424, 439, 456, 486, 506, 537, 552, 567, 591, 604, 626, 641, 653, 686, 716, 742, 761,
    780, 805, 825, 65535, 859, 886, 905, 933, 958, 973, 987, 1012, 1041, 1068, 1083, 1100, 1127,
    1141, 1150, 1171, 65535, 1184, 1205, 1225, 1243, 1257, 1282, 1312, 1334, 1351, 1373, 1389,
    1403, 1431, 1446, 1465, 1484, 1496, 1534, 1561, 1590, 1613, 1652, 1689, 1721, 1769, 1807,
    1857, 1901, 1920, 1935, 1966, 1995, 2012, 2043, 2066, 2089, 2115, 2139, 2169, 2210, 2233,
    2265, 2281, 2304, 2340, 2373, 2398, 2424, 2464, 2500, 2546, 2581, 2602, 2621, 2634, 2651,
    2681, 2707, 2725, 2750, 2778, 2808, 2829, 2846, 2866, 2882, 2900, 2919, 2946, 2962, 2983,
    3011, 3022, 3044, 3082,
};

#define OMPCC_UNKNOWN_AT 3113
#define OMPCC_KNOWN 134

static char ompcc_strerror_buf[32];

char *__ompcc_strerror(int e) {
    if (e >= 0 && e < OMPCC_KNOWN && ompcc_errmsg_at[e] != 0xffff) {
        return (char *)&ompcc_errmsg[ompcc_errmsg_at[e]];
    }
    char *p = ompcc_strerror_buf;
    for (const char *m = &ompcc_errmsg[OMPCC_UNKNOWN_AT]; *m != 0; m++) {
        *p++ = *m;
    }
    /* The number, most significant digit first, through its magnitude as unsigned so that
     * INT_MIN prints too. */
    unsigned v = (unsigned)e;
    if (e < 0) {
        *p++ = '-';
        v = 0u - v;
    }
    char digits[10];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0) {
        *p++ = digits[--n];
    }
    *p = 0;
    return ompcc_strerror_buf;
}
