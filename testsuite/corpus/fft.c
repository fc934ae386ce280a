/* Iterative radix-2 FFT on complex doubles, checked against a direct DFT and by the inverse. */
#include <stdio.h>
#include <complex.h>
#include <math.h>

#define N 64

static const double PI = 3.14159265358979323846;

static unsigned bit_reverse(unsigned x, int bits)
{
    unsigned r = 0;
    for (int i = 0; i < bits; i++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}

static void fft(double complex *a, int n, int inverse)
{
    int bits = 0;
    while ((1 << bits) < n)
        bits++;
    for (unsigned i = 0; i < (unsigned)n; i++) {
        unsigned j = bit_reverse(i, bits);
        if (j > i) {
            double complex t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = 2.0 * PI / len * (inverse ? 1.0 : -1.0);
        double complex wl = cos(ang) + I * sin(ang);
        for (int i = 0; i < n; i += len) {
            double complex w = 1.0;
            for (int j = 0; j < len / 2; j++) {
                double complex u = a[i + j], v = a[i + j + len / 2] * w;
                a[i + j] = u + v;
                a[i + j + len / 2] = u - v;
                w *= wl;
            }
        }
    }
    if (inverse)
        for (int i = 0; i < n; i++)
            a[i] /= n;
}

int main(void)
{
    double complex x[N], y[N], z[N];
    for (int i = 0; i < N; i++) {
        x[i] = sin(2 * PI * 3 * i / N) + 0.5 * cos(2 * PI * 7 * i / N) + 0.25 * I * (i % 4);
        y[i] = x[i];
    }
    fft(y, N, 0);
    double maxerr = 0.0;
    for (int k = 0; k < N; k++) {
        double complex s = 0;
        for (int n = 0; n < N; n++)
            s += x[n] * cexp(-2.0 * I * PI * k * n / N);
        maxerr = fmax(maxerr, cabs(s - y[k]));
    }
    for (int i = 0; i < N; i++)
        z[i] = y[i];
    fft(z, N, 1);
    double roundtrip = 0.0;
    for (int i = 0; i < N; i++)
        roundtrip = fmax(roundtrip, cabs(z[i] - x[i]));
    for (int k = 0; k < N; k++)
        if (cabs(y[k]) > 1e-6)
            printf("bin %2d: |X|=%.6g\n", k, cabs(y[k]));
    printf("matches DFT: %s\n", maxerr < 1e-9 ? "yes" : "no");
    printf("inverse roundtrip: %s\n", roundtrip < 1e-12 ? "yes" : "no");
    return 0;
}
