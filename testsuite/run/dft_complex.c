/* A direct DFT of 256 real samples with complex numbers as a struct of doubles, sin/cos in the
 * kernel; magnitudes of the known frequencies are printed, tiny bins only as a count. */
#include <stdio.h>
#include <math.h>

#define N 256

typedef struct {
    double re, im;
} cplx;

static double x[N];
static cplx X[N];

#pragma omp declare target
static cplx cmul_add(cplx acc, cplx a, cplx b)
{
    acc.re += a.re * b.re - a.im * b.im;
    acc.im += a.re * b.im + a.im * b.re;
    return acc;
}
#pragma omp end declare target

int main(void)
{
    const double pi = 3.14159265358979323846;
    for (int n = 0; n < N; n++)
        x[n] = 3.0 * cos(2 * pi * 5 * n / N) + 1.5 * sin(2 * pi * 17 * n / N) + 0.5;
#pragma omp target teams distribute parallel for map(to : x) map(from : X)
    for (int k = 0; k < N; k++) {
        cplx acc = {0.0, 0.0};
        for (int n = 0; n < N; n++) {
            double ang = -2.0 * pi * (double)((k * n) % N) / N;
            cplx w = {cos(ang), sin(ang)};
            cplx v = {x[n], 0.0};
            acc = cmul_add(acc, v, w);
        }
        X[k] = acc;
    }
    int tiny = 0;
    double energy = 0;
    for (int k = 0; k < N; k++) {
        double mag = sqrt(X[k].re * X[k].re + X[k].im * X[k].im);
        tiny += mag < 1e-6;
        energy += mag * mag;
    }
    printf("tiny=%d energy=%.6f\n", tiny, energy);
    int bins[] = {0, 5, 17, 239, 251};
    for (int b = 0; b < 5; b++) {
        int k = bins[b];
        printf("|X[%d]|=%.6f\n", k, sqrt(X[k].re * X[k].re + X[k].im * X[k].im));
    }
    return 0;
}
