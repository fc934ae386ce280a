/* Bitfields (signed, unsigned, _Bool, zero-width), anonymous structs and unions, _Static_assert,
 * _Alignas and _Alignof: layout facts that must match the host ABI (x86-64 SysV). */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

struct flags {
    unsigned ready : 1;
    unsigned mode : 3;
    signed level : 4;
    bool valid : 1;
    unsigned : 0;      /* next field starts a new unit */
    unsigned count : 12;
};

struct vec3 {
    union {
        struct { float x, y, z; };
        float v[3];
    };
};

struct message {
    int kind;
    union {
        struct { int code; char text[12]; };
        struct { double lat, lon; };
    };
};

struct aligned {
    char c;
    _Alignas(16) int i;
    _Alignas(double) char d[3];
};

union ieee {
    double d;
    uint64_t bits;
    struct { uint64_t mantissa : 52, exponent : 11, sign : 1; };
};

_Static_assert(sizeof(struct vec3) == 3 * sizeof(float), "vec3 is packed floats");
_Static_assert(_Alignof(struct aligned) == 16, "alignment comes from the member");
_Static_assert(offsetof(struct message, code) == offsetof(struct message, lat), "anonymous members overlap");

int main(void)
{
    struct flags f;
    memset(&f, 0, sizeof f);
    f.ready = 1;
    f.mode = 5;
    f.level = -3;
    f.valid = true;
    f.count = 4095;
    printf("sizeof(flags)=%zu ready=%u mode=%u level=%d valid=%d count=%u\n", sizeof f, f.ready, f.mode,
           f.level, f.valid, f.count);
    f.mode += 4; /* wraps modulo 8 */
    f.level = (signed)(f.level - 5); /* -8 fits in 4 signed bits */
    f.count++;   /* wraps to 0 */
    printf("after wrap: mode=%u level=%d count=%u\n", f.mode, f.level, f.count);

    struct vec3 p = {{{1.0f, 2.0f, 3.0f}}};
    p.v[1] *= 10;
    printf("vec3: x=%.6g y=%.6g z=%.6g\n", p.x, p.y, p.z);

    struct message m = {.kind = 1, .code = 404};
    strcpy(m.text, "not found");
    printf("message %d: %d %s\n", m.kind, m.code, m.text);
    m.kind = 2;
    m.lat = 51.5;
    m.lon = -0.125;
    printf("message %d: %.6g %.6g sizeof=%zu\n", m.kind, m.lat, m.lon, sizeof m);

    printf("aligned: size=%zu align=%zu offsets c=%zu i=%zu d=%zu\n", sizeof(struct aligned),
           _Alignof(struct aligned), offsetof(struct aligned, c), offsetof(struct aligned, i),
           offsetof(struct aligned, d));
    _Alignas(32) static char buffer[64];
    printf("buffer aligned to 32: %d, alignof(long double)=%zu alignof(max_align_t)=%zu\n",
           (uintptr_t)buffer % 32 == 0, _Alignof(long double), _Alignof(max_align_t));

    union ieee u = {.d = -1.5};
    printf("-1.5: sign=%u exponent=%u mantissa=%#llx bits=%#llx\n", (unsigned)u.sign, (unsigned)u.exponent,
           (unsigned long long)u.mantissa, (unsigned long long)u.bits);
    u.exponent += 2;
    printf("times 4: %.6g\n", u.d);
    return 0;
}
