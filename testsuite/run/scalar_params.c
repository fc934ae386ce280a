/* Scalars of every size passed into kernels as implicit firstprivate values: _Bool, char,
 * short, int, long, long long, unsigned variants, float, double, an enum and a pointer-sized
 * integer, all used in one kernel. */
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#define N 1000

enum mode { M_ADD = 3, M_SUB = 7 };

int main(void)
{
    bool flag = true;
    signed char c = -5;
    unsigned char uc = 200;
    short s = -1234;
    unsigned short us = 60000;
    int i32 = -100000;
    unsigned u32 = 4000000000u;
    long l64 = -5000000000L;
    unsigned long long u64 = 18000000000000000000ULL;
    float f = 0.375f;
    double d = -2.5e-3;
    enum mode md = M_SUB;
    intptr_t ip = 123456789;
    static long out[N];
    static double dout[N];
#pragma omp target teams distribute parallel for map(from : out, dout)
    for (int i = 0; i < N; i++) {
        long v = flag ? i : -i;
        v += c * 3 + uc + s + us;
        v += (long)i32 + (long)(u32 % 1000003u) + l64 / 1000 + (long)(u64 % 999983u);
        v += md == M_SUB ? -(long)ip % 1000 : (long)ip;
        out[i] = v;
        dout[i] = f * i + d * md;
    }
    long so = 0;
    double sd = 0;
    for (int i = 0; i < N; i++) {
        so += out[i];
        sd += dout[i];
    }
    printf("so=%ld sd=%.6f out[999]=%ld dout[10]=%.6f\n", so, sd, out[N - 1], dout[10]);
    return 0;
}
