/* declare target: device functions (in a declare target ... end declare target block and the
 * to() form),
 * a global table and a global counter accessible in target regions, static helper
 * functions called from kernels, and target update of a declare-target global. */
#include <stdio.h>
#include <math.h>
#include <omp.h>

#define TABLE 16

#pragma omp declare target
static double coeffs[TABLE];
static int calls_on_device;

static double poly(double x)
{
    double r = 0.0;
    for (int k = TABLE - 1; k >= 0; k--)
        r = r * x + coeffs[k];
    return r;
}

static int collatz_len(unsigned n)
{
    int len = 1;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n >> 1;
        len++;
    }
    return len;
}
#pragma omp end declare target

float clampf(float v, float lo, float hi);
#pragma omp declare target to(clampf)

float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int main(void)
{
    /* exp(x) Taylor coefficients, copied into the device's copy of the global */
    double f = 1.0;
    for (int k = 0; k < TABLE; k++) {
        coeffs[k] = 1.0 / f;
        f *= k + 1;
    }
#pragma omp target update to(coeffs)

    enum { N = 1000 };
    double vals[N];
#pragma omp target teams distribute parallel for map(from : vals)
    for (int i = 0; i < N; i++)
        vals[i] = poly((i - 500) / 250.0);
    double maxerr = 0.0;
    for (int i = 0; i < N; i++)
        maxerr = fmax(maxerr, fabs(vals[i] - exp((i - 500) / 250.0)) / exp((i - 500) / 250.0));
    printf("poly(1)=%.6g poly(-2)=%.6g, matches exp: %s\n", vals[750], vals[0], maxerr < 1e-6 ? "yes" : "no");

    int lens[200];
#pragma omp target teams distribute parallel for map(from : lens)
    for (int i = 0; i < 200; i++)
        lens[i] = collatz_len((unsigned)i + 1);
    int best = 0;
    for (int i = 1; i < 200; i++)
        if (lens[i] > lens[best])
            best = i;
    printf("longest collatz below 201: %d (length %d)\n", best + 1, lens[best]);

    float in[8] = {-3.5f, -1.0f, 0.0f, 0.25f, 0.99f, 1.0f, 7.0f, 1e9f}, out[8];
#pragma omp target teams distribute parallel for map(to : in) map(from : out)
    for (int i = 0; i < 8; i++)
        out[i] = clampf(in[i], 0.0f, 1.0f);
    printf("clamped:");
    for (int i = 0; i < 8; i++)
        printf(" %.6g", (double)out[i]);
    printf("\n");

    calls_on_device = 0;
#pragma omp target update to(calls_on_device)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 500; i++) {
#pragma omp atomic update
        calls_on_device += 1;
    }
#pragma omp target update from(calls_on_device)
    printf("device counter=%d\n", calls_on_device);

    /* changing the host copy without an update leaves the device copy alone */
    coeffs[0] = 100.0;
    double p0;
#pragma omp target map(from : p0)
    p0 = poly(0.0);
    /* 1 from a separate device copy, 100 when the fallback runs on the host's copy */
    printf("poly(0) on the device after a host-only change: %s\n",
           p0 == 1.0 || p0 == 100.0 ? "as expected" : "unexpected");
    return 0;
}
