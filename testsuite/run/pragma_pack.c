// #pragma pack in its forms: host and device must agree on every record's layout, since
// mapped records are copied byte for byte (found by csmith: a packed struct read through a
// union member on the device).
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#pragma pack(push)
#pragma pack(1)
struct S0 {
    int8_t f0;
    uint32_t f1;
    int32_t f2;
    int64_t f3;
};
#pragma pack(pop)

union U5 {
    struct S0 f0;
    int32_t f2;
    int64_t f3;
};

#pragma pack(push, 2)
struct Two {
    char a;
    double b;
    short c;
};
#pragma pack(pop)

struct Mid {
    char a;
#pragma pack(1)
    int b;
};
#pragma pack()

#pragma pack(push, 1)
struct Bits {
    signed f0 : 19;
    unsigned f1 : 14;
    signed f2 : 31;
    signed f3 : 17; /* bits 64..80: its aligned 32-bit unit ends past the record */
};
#pragma pack(pop)

struct Plain {
    char a;
    int b;
};

#pragma omp declare target
static union U5 g_u = {{-3, 9u, 1, 1}};
#pragma omp end declare target

int main(void)
{
    long r[15];
    struct S0 rec[4];
    struct Bits bits[3] = {{-5, 77, -100000, -3}, {6, 8, 9, 10}, {-7, 16383, 1 << 29, -65536}};
    for (int i = 0; i < 4; i++) {
        rec[i].f0 = (int8_t)i;
        rec[i].f1 = 1000u + (uint32_t)i;
        rec[i].f2 = -i;
        rec[i].f3 = 10000000000LL * i;
    }
#pragma omp target map(from : r) map(tofrom : rec, bits)
    {
#pragma pack(4)
        struct Local {
            char a;
            long b;
        };
        r[0] = (long)sizeof(struct S0);
        r[1] = (long)offsetof(struct S0, f3);
        r[2] = (long)sizeof(union U5);
        r[3] = g_u.f2;
        r[4] = (long)g_u.f3;
        r[5] = (long)sizeof(struct Two);
        r[6] = (long)offsetof(struct Two, c);
        r[7] = (long)sizeof(struct Mid);
        r[8] = (long)sizeof(struct Plain);
        r[9] = (long)sizeof(struct Local);
        g_u.f2 = 0x12345678;
        r[10] = g_u.f0.f0;
        r[11] = (long)g_u.f0.f1;
        for (int i = 0; i < 4; i++) {
            rec[i].f1 += (uint32_t)rec[i].f0;
            rec[i].f3 += rec[i].f2;
        }
        r[12] = (long)sizeof(rec);
        r[13] = (long)sizeof(bits);
        r[14] = bits[2].f3 + bits[2].f2 + bits[0].f0;
        bits[2].f3 += 1;
        bits[1].f2 = -bits[1].f3;
    }
    for (int i = 0; i < 3; i++)
        printf("bits[%d] = %d %u %d %d\n", i, bits[i].f0, bits[i].f1, bits[i].f2, bits[i].f3);
    for (int i = 0; i < 15; i++)
        printf("r[%d] = %ld\n", i, r[i]);
    for (int i = 0; i < 4; i++)
        printf("rec[%d] = %d %u %d %lld\n", i, rec[i].f0, (unsigned)rec[i].f1, rec[i].f2,
               (long long)rec[i].f3);
    return 0;
}
