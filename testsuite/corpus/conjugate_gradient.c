/* Conjugate gradient on the 2D Poisson matrix (5-point Laplacian, applied matrix-free) with
 * OpenMP dot products; reports iterations and the residual reduction. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#define G 24
#define N (G * G)

static void apply_laplacian(const double *x, double *y)
{
#pragma omp parallel for
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++) {
            double v = 4.0 * x[i * G + j];
            if (i > 0) v -= x[(i - 1) * G + j];
            if (i < G - 1) v -= x[(i + 1) * G + j];
            if (j > 0) v -= x[i * G + j - 1];
            if (j < G - 1) v -= x[i * G + j + 1];
            y[i * G + j] = v;
        }
}

static double dot(const double *a, const double *b)
{
    double s = 0.0;
    /* summed in a fixed order so the result does not depend on the thread count */
    for (int i = 0; i < N; i++)
        s += a[i] * b[i];
    return s;
}

static void axpy(double alpha, const double *x, double *y)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        y[i] += alpha * x[i];
}

int main(void)
{
    double *x = calloc(N, sizeof *x), *b = malloc(N * sizeof *b), *r = malloc(N * sizeof *r);
    double *p = malloc(N * sizeof *p), *ap = malloc(N * sizeof *ap);
    if (!x || !b || !r || !p || !ap)
        return 1;
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++)
            b[i * G + j] = sin(3.14159 * (i + 1) / (G + 1)) * sin(3.14159 * (j + 1) / (G + 1));
    for (int i = 0; i < N; i++)
        r[i] = p[i] = b[i];
    double rr = dot(r, r), rr0 = rr;
    int it = 0;
    while (it < 500 && sqrt(rr / rr0) > 1e-10) {
        apply_laplacian(p, ap);
        double alpha = rr / dot(p, ap);
        axpy(alpha, p, x);
        axpy(-alpha, ap, r);
        double rr_new = dot(r, r);
        double beta = rr_new / rr;
        rr = rr_new;
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            p[i] = r[i] + beta * p[i];
        it++;
    }
    apply_laplacian(x, ap);
    double err = 0.0;
    for (int i = 0; i < N; i++)
        err = fmax(err, fabs(ap[i] - b[i]));
    printf("grid %dx%d, converged: %s, iterations <= %d: %s\n", G, G,
           sqrt(rr / rr0) <= 1e-10 ? "yes" : "no", 2 * G, it <= 2 * G ? "yes" : "no");
    printf("true residual small: %s\n", err < 1e-8 ? "yes" : "no");
    printf("x centre=%.6g x corner=%.6g\n", x[(G / 2) * G + G / 2], x[0]);
    free(x); free(b); free(r); free(p); free(ap);
    return 0;
}
