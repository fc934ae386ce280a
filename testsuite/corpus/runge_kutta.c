/* Classical RK4 and adaptive-free Euler integration of ODE systems through a function pointer:
 * exponential decay (exact solution known), a harmonic oscillator (energy drift) and Lotka-Volterra. */
#include <stdio.h>
#include <math.h>

typedef void (*rhs_fn)(double t, const double *y, double *dy, const void *params);

struct lv_params { double a, b, c, d; };

static void decay(double t, const double *y, double *dy, const void *p)
{
    (void)t;
    dy[0] = -*(const double *)p * y[0];
}

static void oscillator(double t, const double *y, double *dy, const void *p)
{
    (void)t;
    double w = *(const double *)p;
    dy[0] = y[1];
    dy[1] = -w * w * y[0];
}

static void lotka_volterra(double t, const double *y, double *dy, const void *p)
{
    (void)t;
    const struct lv_params *q = p;
    dy[0] = q->a * y[0] - q->b * y[0] * y[1];
    dy[1] = q->d * y[0] * y[1] - q->c * y[1];
}

static void rk4(rhs_fn f, int n, double *y, double t, double h, int steps, const void *p)
{
    double k1[4], k2[4], k3[4], k4[4], tmp[4];
    for (int s = 0; s < steps; s++, t += h) {
        f(t, y, k1, p);
        for (int i = 0; i < n; i++) tmp[i] = y[i] + 0.5 * h * k1[i];
        f(t + 0.5 * h, tmp, k2, p);
        for (int i = 0; i < n; i++) tmp[i] = y[i] + 0.5 * h * k2[i];
        f(t + 0.5 * h, tmp, k3, p);
        for (int i = 0; i < n; i++) tmp[i] = y[i] + h * k3[i];
        f(t + h, tmp, k4, p);
        for (int i = 0; i < n; i++)
            y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
}

static void euler(rhs_fn f, int n, double *y, double t, double h, int steps, const void *p)
{
    double dy[4];
    for (int s = 0; s < steps; s++, t += h) {
        f(t, y, dy, p);
        for (int i = 0; i < n; i++)
            y[i] += h * dy[i];
    }
}

int main(void)
{
    double lambda = 0.7;
    double y1[1] = {1.0}, y2[1] = {1.0};
    rk4(decay, 1, y1, 0.0, 0.01, 300, &lambda);
    euler(decay, 1, y2, 0.0, 0.01, 300, &lambda);
    double exact = exp(-lambda * 3.0);
    printf("decay exact=%.6g rk4=%.6g euler=%.6g\n", exact, y1[0], y2[0]);
    printf("rk4 error < 1e-9: %d, euler error < 1e-2: %d\n", fabs(y1[0] - exact) < 1e-9,
           fabs(y2[0] - exact) < 1e-2);

    double w = 2.0, osc[2] = {1.0, 0.0};
    rk4(oscillator, 2, osc, 0.0, 0.001, 5000, &w);
    double energy = 0.5 * osc[1] * osc[1] + 0.5 * w * w * osc[0] * osc[0];
    printf("oscillator x=%.6g v=%.6g energy=%.6g\n", osc[0], osc[1], energy);

    struct lv_params lv = {1.1, 0.4, 0.4, 0.1};
    double pop[2] = {10.0, 10.0};
    for (int k = 1; k <= 5; k++) {
        rk4(lotka_volterra, 2, pop, 0.0, 0.01, 200, &lv);
        printf("t=%d prey=%.6g predators=%.6g\n", 2 * k, pop[0], pop[1]);
    }
    return 0;
}
