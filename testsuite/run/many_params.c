/* A kernel with many parameters: twelve arrays (mapped to/from/tofrom/alloc in one construct),
 * six scalars and a pointer section at an offset. */
#include <stdio.h>

#define N 1200

static double a0[N], a1[N], a2[N], a3[N], a4[N], a5[N];
static int b0[N], b1[N], b2[N], b3[N];
static float c0[N], c1[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a0[i] = i;
        a1[i] = 2 * i;
        b0[i] = i % 5;
        b1[i] = i % 7;
        c0[i] = (float)(i % 3);
    }
    int k1 = 3, k2 = -2;
    long k3 = 1L << 35;
    double k4 = 0.5, k5 = -1.25;
    float k6 = 2.0f;
    double *tail = a5 + 200;
#pragma omp target teams distribute parallel for map(to : a0, a1, b0, b1, c0) \
    map(from : a2, a3, b2, c1) map(tofrom : a4, b3) map(alloc : a5[0:1]) map(from : tail[0:N - 200])
    for (int i = 0; i < N; i++) {
        a2[i] = a0[i] * k4 + a1[i] * k5;
        a3[i] = (double)(b0[i] * k1 + b1[i] * k2);
        b2[i] = (int)((k3 >> 30) + b0[i] * b1[i]);
        c1[i] = c0[i] * k6;
        a4[i] += a0[i];
        b3[i] -= b1[i];
        if (i < N - 200)
            tail[i] = a0[i] + 0.25;
    }
    double s = 0;
    long t = 0;
    for (int i = 0; i < N; i++) {
        s += a2[i] + a3[i] + c1[i] + a4[i] + (i >= 200 ? a5[i] : 0.0);
        t += b2[i] + b3[i];
    }
    printf("s=%.6f t=%ld a5[1199]=%.6f\n", s, t, a5[N - 1]);
    return 0;
}
