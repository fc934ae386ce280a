#include <stdlib.h>
#include <math.h>
#include <omp.h>

#define NX 256
#define NY 256

struct grid { int nx, ny; double *u, *unew; };

static void stencil(struct grid *g, int iters) {
    double *u = g->u, *unew = g->unew;
    int nx = g->nx, ny = g->ny;
#pragma omp target data map(tofrom: u[0:nx*ny]) map(alloc: unew[0:nx*ny])
    for (int it = 0; it < iters; it++) {
#pragma omp target teams distribute parallel for collapse(2) thread_limit(256)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++)
                unew[j * nx + i] = 0.25 * (u[j * nx + i - 1] + u[j * nx + i + 1]
                                         + u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
#pragma omp target teams distribute parallel for
        for (int k = 0; k < nx * ny; k++) u[k] = unew[k];
    }
}

static double reduce_max(int n, const float *restrict x) {
    float m = -INFINITY;
#pragma omp target teams distribute parallel for reduction(max: m) map(to: x[0:n])
    for (int i = 0; i < n; ++i) m = fmaxf(m, x[i]);
    return m;
}

static void histogram(int n, const int *v, int *bins, int nb) {
#pragma omp target teams distribute parallel for map(to: v[0:n]) map(tofrom: bins[0:nb])
    for (int i = 0; i < n; i++) {
#pragma omp atomic update
        bins[v[i] % nb] += 1;
    }
}

static void generic_mode(int n, double *a) {
#pragma omp target map(tofrom: a[0:n])
#pragma omp teams num_teams(4)
    {
        int t = omp_get_team_num();
#pragma omp distribute
        for (int i = 0; i < n; i++) a[i] += t;
#pragma omp parallel
        {
#pragma omp single
            a[0] += omp_get_num_threads();
#pragma omp barrier
#pragma omp master
            a[1] += 1;
        }
    }
}

#pragma omp declare target
static inline double sq(double x) { return x * x; }
#pragma omp end declare target

int main(void) {
    struct grid g = { NX, NY, calloc(NX * NY, sizeof(double)), calloc(NX * NY, sizeof(double)) };
    stencil(&g, 10);
    float xs[100];
    for (int i = 0; i < 100; i++) xs[i] = (float)sq(i % 7);
    int v[1000], bins[16] = { 0 };
    for (int i = 0; i < 1000; i++) v[i] = i * 7;
    histogram(1000, v, bins, 16);
    double a[64] = { 0 };
    generic_mode(64, a);
    double *d = omp_target_alloc(64 * sizeof(double), omp_get_default_device());
    omp_target_memcpy(d, a, sizeof a, 0, 0, omp_get_default_device(), omp_get_initial_device());
#pragma omp target is_device_ptr(d)
    d[0] = 1;
    omp_target_free(d, omp_get_default_device());
    free(g.u);
    free(g.unew);
    return (int)reduce_max(100, xs) + bins[3] + (int)a[0];
}
