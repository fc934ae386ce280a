/* <complex.h> arithmetic: construction with I and CMPLX, +,-,*,/ , conj, cabs, carg, cexp,
 * clog, cpow, csqrt, float and long double variants, roots of unity and a quadratic solver. */
#include <stdio.h>
#include <complex.h>
#include <math.h>

static void show(const char *label, double complex z)
{
    /* print -0 as 0 so the output does not depend on the sign of zero */
    double re = creal(z), im = cimag(z);
    if (fabs(re) < 5e-13) re = 0;
    if (fabs(im) < 5e-13) im = 0;
    printf("%-12s = (%.6g, %.6g)\n", label, re, im);
}

static void quadratic(double a, double b, double c)
{
    double complex disc = csqrt(b * b - 4 * a * c + 0.0 * I);
    double complex r1 = (-b + disc) / (2 * a), r2 = (-b - disc) / (2 * a);
    printf("roots of %.6gx^2%+.6gx%+.6g:\n", a, b, c);
    show("  r1", r1);
    show("  r2", r2);
    show("  check r1", a * r1 * r1 + b * r1 + c);
}

int main(void)
{
    double complex a = 3.0 + 4.0 * I, b = CMPLX(1.0, -2.0);
    show("a", a);
    show("b", b);
    show("a+b", a + b);
    show("a-b", a - b);
    show("a*b", a * b);
    show("a/b", a / b);
    show("conj(a)", conj(a));
    printf("|a|=%.6g arg(a)=%.6g proj real=%.6g\n", cabs(a), carg(a), creal(cproj(a)));
    show("exp(i*pi)", cexp(I * M_PI));
    show("log(a)", clog(a));
    show("sqrt(a)", csqrt(a));
    show("a^2", cpow(a, 2));
    show("i^i", cpow(I, I));
    show("sin(a)", csin(a));
    show("cosh(b)", ccosh(b));
    float complex fz = 1.0f + 1.0f * I;
    fz *= fz;
    printf("float: (1+i)^2 = (%.6g, %.6g), sizeof=%zu\n", (double)crealf(fz), (double)cimagf(fz), sizeof fz);
    long double complex lz = 2.0L - 1.0L * I;
    printf("long double: |2-i| = %.6Lg, sizeof=%zu\n", cabsl(lz), sizeof lz);
    int n = 6;
    double complex sum = 0, prod = 1;
    for (int k = 0; k < n; k++) {
        double complex w = cexp(2.0 * M_PI * I * k / n);
        sum += w;
        prod *= w;
    }
    show("sum roots", sum);
    show("prod roots", prod);
    quadratic(1, 2, 5);
    quadratic(2, -7, 3);
    double complex z = 0;
    double complex c = -0.75 + 0.1 * I;
    int iter = 0;
    while (cabs(z) <= 2 && iter < 1000) {
        z = z * z + c;
        iter++;
    }
    printf("mandelbrot escape of (%.6g, %.6g) after %d iterations\n", creal(c), cimag(c), iter);
    return 0;
}
