/* Unions, enums, bit-fields and typedefs in kernels: a tagged value array evaluated per element,
 * a union reinterpreting float bits, and packed bit-field records. */
#include <stdio.h>
#include <stdint.h>

#define N 3000

typedef enum { K_INT, K_REAL, K_PAIR } kind_t;

typedef struct {
    kind_t kind;
    union {
        int i;
        double r;
        struct {
            short a, b;
        } pair;
    } u;
} value_t;

struct flags {
    unsigned ready : 1;
    unsigned level : 3;
    signed delta : 5;
    unsigned code : 12;
};

union fbits {
    float f;
    uint32_t bits;
};

static value_t vals[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        vals[i].kind = (kind_t)(i % 3);
        if (i % 3 == 0)
            vals[i].u.i = i * 3;
        else if (i % 3 == 1)
            vals[i].u.r = i * 0.25;
        else
            vals[i].u.pair.a = (short)(i % 100), vals[i].u.pair.b = (short)-(i % 7);
    }
    static double res[N];
    static uint32_t fb[N];
    static struct flags fl[N];
#pragma omp target teams distribute parallel for map(to : vals) map(from : res, fb, fl)
    for (int i = 0; i < N; i++) {
        switch (vals[i].kind) {
        case K_INT:
            res[i] = vals[i].u.i;
            break;
        case K_REAL:
            res[i] = vals[i].u.r * 2;
            break;
        case K_PAIR:
            res[i] = vals[i].u.pair.a * vals[i].u.pair.b;
            break;
        }
        union fbits x = {.f = (float)i * 0.5f + 1.0f};
        fb[i] = x.bits >> 13;
        struct flags f = {0};
        f.ready = i & 1;
        f.level = (unsigned)i % 8;
        f.delta = i % 31 - 15;
        f.code = (unsigned)i * 37;
        fl[i] = f;
    }
    double sr = 0;
    long sb = 0, sf = 0;
    for (int i = 0; i < N; i++) {
        sr += res[i];
        sb += fb[i];
        sf += fl[i].ready + fl[i].level * 2 + fl[i].delta * 16 + (long)fl[i].code;
    }
    printf("res=%.6f bits=%ld flags=%ld fl[77]={%u,%u,%d,%u}\n", sr, sb, sf, fl[77].ready,
           fl[77].level, fl[77].delta, fl[77].code);
    return 0;
}
