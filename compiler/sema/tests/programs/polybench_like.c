/* Kernels in the style of PolyBench/ACC with OpenMP offloading. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define NI 64
#define NJ 64
#define NK 64

#pragma omp declare target
static double coeff[4] = { 0.5, 0.25, 0.125, 0.0625 };
#pragma omp end declare target

static void gemm(int ni, int nj, int nk, double alpha, double beta,
                 double C[NI][NJ], double A[NI][NK], double B[NK][NJ]) {
    int i, j, k;
#pragma omp target teams distribute parallel for collapse(2) private(k) \
    map(to: A[0:ni][0:nk], B[0:nk][0:nj]) map(tofrom: C[0:ni][0:nj])
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            C[i][j] *= beta;
            for (k = 0; k < nk; ++k)
                C[i][j] += alpha * A[i][k] * B[k][j];
        }
}

static double norm2(int n, const double *restrict x) {
    double sum = 0.0;
#pragma omp target teams distribute parallel for simd reduction(+: sum) map(to: x[0:n]) \
    num_teams(16) thread_limit(128) schedule(static, 1) dist_schedule(static)
    for (int i = 0; i < n; i++) sum += x[i] * x[i] * coeff[i & 3];
    return sum;
}

static void smooth(int n, double *a, double *b, int steps) {
#pragma omp target enter data map(to: a[0:n]) map(alloc: b[0:n])
    for (int t = 0; t < steps; t++) {
#pragma omp target teams loop
        for (int i = 1; i < n - 1; i++) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
#pragma omp target teams distribute parallel for if(target: n > 128) nowait depend(out: a[0:n])
        for (int i = 1; i < n - 1; i++) a[i] = b[i];
#pragma omp taskwait
    }
#pragma omp target update from(a[0:n])
#pragma omp target exit data map(release: a[0:n]) map(delete: b[0:n])
}

int main(void) {
    static double A[NI][NK], B[NK][NJ], C[NI][NJ];
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) { A[i][j] = i + j; B[i][j] = i - j; C[i][j] = 1; }
    double t0 = omp_get_wtime();
    gemm(NI, NJ, NK, 1.5, 1.2, C, A, B);
    double *v = malloc(1024 * sizeof *v), *w = malloc(1024 * sizeof *w);
    for (int i = 0; i < 1024; i++) v[i] = i * 0.001;
    smooth(1024, v, w, 3);
    int dev = omp_get_default_device();
    printf("%f %f %f %d %d\n", C[1][2], norm2(1024, v), omp_get_wtime() - t0, dev, omp_is_initial_device());
#pragma omp parallel for default(shared) schedule(dynamic)
    for (int i = 0; i < 1024; i++) w[i] = v[i] * 2;
    free(v);
    free(w);
    return 0;
}
