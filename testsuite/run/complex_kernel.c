/* _Complex on the device: a Mandelbrot escape-count grid in `target teams distribute
 * parallel for` (complex `*` and `+` in a loop), then per-point complex arithmetic and
 * <complex.h> library calls (cabs, carg, cexp, clog, csqrt, cpow, csin, ctanh, float
 * variants), division, conj, creal/cimag, __real__ as an lvalue and a complex helper
 * function with complex parameters and result. */
#include <complex.h>
#include <stdio.h>

#define W 24
#define H 12
#define N 16

#pragma omp declare target
static double complex rotate(double complex z, double complex w, int k)
{
    for (int i = 0; i < k; i++)
        z *= w;
    return z;
}
#pragma omp end declare target

int main(void)
{
    int count[W * H];
#pragma omp target teams distribute parallel for map(from: count[0:W * H])
    for (int p = 0; p < W * H; p++) {
        double complex c = (-2.0 + 0.125 * (p % W)) + (-1.125 + 0.1875 * (p / W)) * I;
        double complex z = 0;
        int n = 0;
        while (n < 64 && creal(z) * creal(z) + cimag(z) * cimag(z) <= 4.0) {
            z = z * z + c;
            n++;
        }
        count[p] = n;
    }
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            putchar(" .:-=+*#%@"[count[y * W + x] * 9 / 64]);
        putchar('\n');
    }

    double out[N][8];
    float fout[N][4];
#pragma omp target teams distribute parallel for map(from: out, fout)
    for (int i = 0; i < N; i++) {
        double complex a = CMPLX(0.25 * i - 1.5, 1.0 - 0.125 * i);
        double complex b = (i + 1) - 0.5 * I;
        double complex q = a / b + conj(a) * 2;
        q -= 1.0;
        __real__ q += 0.5;
        double complex r = rotate(a, cexp(I * 0.5), i % 5);
        out[i][0] = creal(q);
        out[i][1] = cimag(q);
        out[i][2] = cabs(a) + carg(b);
        out[i][3] = creal(clog(a)) + cimag(csqrt(a));
        out[i][4] = creal(cpow(b, 0.5 + 0.25 * I));
        out[i][5] = cimag(csin(a)) + creal(ctanh(b));
        out[i][6] = creal(r) - cimag(r);
        out[i][7] = (a == b) + 2 * (a != 0) + 4 * (creal(a) == -1.5);
        float complex f = (float)i * 0.5f + 1.0f * I;
        f = f * f / (1.0f + f);
        fout[i][0] = crealf(f);
        fout[i][1] = cimagf(f);
        fout[i][2] = cabsf(cexpf(f));
        fout[i][3] = (float)sizeof f;
    }
    for (int i = 0; i < N; i++)
        printf("%2d: %.9g %.9g %.9g %.9g %.9g %.9g %.9g %g | %.5g %.5g %.5g %g\n", i, out[i][0],
               out[i][1], out[i][2], out[i][3], out[i][4], out[i][5], out[i][6], out[i][7],
               fout[i][0], fout[i][1], fout[i][2], fout[i][3]);
    return 0;
}
