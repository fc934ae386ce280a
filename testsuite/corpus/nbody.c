/* Gravitational n-body simulation (leapfrog) in single and double precision; forces are
 * computed with an OpenMP parallel loop, each body's force summed in a fixed order. */
#include <stdio.h>
#include <math.h>
#include <omp.h>

#define NB 64
#define STEPS 50

typedef struct { double x, y, z, vx, vy, vz, m; } body;

static body bodies[NB];
static double ax[NB], ay[NB], az[NB];

static void init(void)
{
    for (int i = 0; i < NB; i++) {
        double t = i * 0.7;
        bodies[i] = (body){cos(t) * (1 + i % 5), sin(t) * (1 + i % 3), 0.1 * (i % 7 - 3),
                           -sin(t) * 0.3, cos(t) * 0.3, 0.0, 1.0 + (i % 4) * 0.25};
    }
}

static void forces(void)
{
    const double eps2 = 1e-2;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < NB; i++) {
        double fx = 0, fy = 0, fz = 0;
        for (int j = 0; j < NB; j++) {
            if (j == i)
                continue;
            double dx = bodies[j].x - bodies[i].x, dy = bodies[j].y - bodies[i].y;
            double dz = bodies[j].z - bodies[i].z;
            double r2 = dx * dx + dy * dy + dz * dz + eps2;
            double inv = bodies[j].m / (r2 * sqrt(r2));
            fx += dx * inv; fy += dy * inv; fz += dz * inv;
        }
        ax[i] = fx; ay[i] = fy; az[i] = fz;
    }
}

static double energy(void)
{
    double e = 0;
    for (int i = 0; i < NB; i++) {
        const body *b = &bodies[i];
        e += 0.5 * b->m * (b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
        for (int j = i + 1; j < NB; j++) {
            double dx = bodies[j].x - b->x, dy = bodies[j].y - b->y, dz = bodies[j].z - b->z;
            e -= b->m * bodies[j].m / sqrt(dx * dx + dy * dy + dz * dz + 1e-2);
        }
    }
    return e;
}

static float two_body_float(int steps)
{
    float x = 1.0f, y = 0.0f, vx = 0.0f, vy = 1.0f, dt = 0.01f;
    for (int s = 0; s < steps; s++) {
        float r = sqrtf(x * x + y * y), a = -1.0f / (r * r * r);
        vx += a * x * dt; vy += a * y * dt;
        x += vx * dt; y += vy * dt;
    }
    return sqrtf(x * x + y * y);
}

int main(void)
{
    init();
    double e0 = energy(), dt = 0.001;
    forces();
    for (int s = 0; s < STEPS; s++) {
        for (int i = 0; i < NB; i++) {
            bodies[i].vx += 0.5 * dt * ax[i]; bodies[i].vy += 0.5 * dt * ay[i];
            bodies[i].vz += 0.5 * dt * az[i];
            bodies[i].x += dt * bodies[i].vx; bodies[i].y += dt * bodies[i].vy;
            bodies[i].z += dt * bodies[i].vz;
        }
        forces();
        for (int i = 0; i < NB; i++) {
            bodies[i].vx += 0.5 * dt * ax[i]; bodies[i].vy += 0.5 * dt * ay[i];
            bodies[i].vz += 0.5 * dt * az[i];
        }
    }
    double e1 = energy(), cx = 0, cm = 0;
    for (int i = 0; i < NB; i++) {
        cx += bodies[i].m * bodies[i].x;
        cm += bodies[i].m;
    }
    printf("energy start=%.6g end=%.6g\n", e0, e1);
    printf("relative drift small: %s\n", fabs((e1 - e0) / e0) < 1e-3 ? "yes" : "no");
    printf("centre of mass x=%.5g\n", cx / cm);
    printf("body 0 at (%.5g, %.5g, %.5g)\n", bodies[0].x, bodies[0].y, bodies[0].z);
    printf("float orbit radius after 628 steps: %.4g\n", (double)two_body_float(628));
    return 0;
}
