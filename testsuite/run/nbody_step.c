/* n-body: 256 bodies, all-pairs forces with a softening term (sqrt, division) in one kernel,
 * a second kernel integrating; energy-like checksums after 3 steps. */
#include <stdio.h>
#include <math.h>

#define NB 256
#define STEPS 3

static double px[NB], py[NB], pz[NB], vx[NB], vy[NB], vz[NB], m[NB];
static double ax[NB], ay[NB], az[NB];

int main(void)
{
    for (int i = 0; i < NB; i++) {
        px[i] = cos(i * 0.37) * (1 + i % 5);
        py[i] = sin(i * 0.37) * (1 + i % 5);
        pz[i] = (i % 7 - 3) * 0.1;
        vx[i] = vy[i] = vz[i] = 0.0;
        m[i] = 1.0 + (i % 3) * 0.5;
    }
    const double dt = 0.01, eps2 = 0.01;
#pragma omp target data map(tofrom : px, py, pz, vx, vy, vz) map(to : m) map(alloc : ax, ay, az)
    for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < NB; i++) {
            double fx = 0, fy = 0, fz = 0;
            for (int j = 0; j < NB; j++) {
                double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
                double r2 = dx * dx + dy * dy + dz * dz + eps2;
                double inv = 1.0 / (r2 * sqrt(r2));
                fx += m[j] * dx * inv;
                fy += m[j] * dy * inv;
                fz += m[j] * dz * inv;
            }
            ax[i] = fx;
            ay[i] = fy;
            az[i] = fz;
        }
#pragma omp target teams distribute parallel for
        for (int i = 0; i < NB; i++) {
            vx[i] += ax[i] * dt;
            vy[i] += ay[i] * dt;
            vz[i] += az[i] * dt;
            px[i] += vx[i] * dt;
            py[i] += vy[i] * dt;
            pz[i] += vz[i] * dt;
        }
    }
    double ke = 0, cx = 0, cy = 0;
    for (int i = 0; i < NB; i++) {
        ke += 0.5 * m[i] * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
        cx += m[i] * px[i];
        cy += m[i] * py[i];
    }
    printf("ke=%.10g cx=%.10g cy=%.10g px[17]=%.10g\n", ke, cx, cy, px[17]);
    return 0;
}
