// BabelStream-style memory bandwidth of OpenMP target offload: copy, mul, add, triad and dot
// over STREAM_N doubles, each run NTIMES times inside one `target data` region; the best time
// of each kernel gives its bandwidth (bytes read + written). The wall time around each target
// construct is measured, launch cost included, as an OpenMP program sees it. Written for ompcc
// (bench/README.md); the CUDA twin is stream.cu. Prints one line per kernel, then a check of
// the arrays against the values the same arithmetic gives on the host.
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef STREAM_N
#define STREAM_N (1 << 25)
#endif
#ifndef NTIMES
#define NTIMES 20
#endif

static double best(const double *t) {
    double m = t[1];
    for (int k = 2; k < NTIMES; k++) // the first run pays for first touch: skipped
        m = t[k] < m ? t[k] : m;
    return m;
}

int main(void) {
    int n = STREAM_N;
    double scalar = 0.4;
    double *a = malloc(sizeof(double) * n);
    double *b = malloc(sizeof(double) * n);
    double *c = malloc(sizeof(double) * n);
    double times[5][NTIMES];
    double sum = 0.0;
#pragma omp target data map(alloc : a[0:n], b[0:n], c[0:n])
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            a[i] = 0.1;
            b[i] = 0.2;
            c[i] = 0.0;
        }
        for (int k = 0; k < NTIMES; k++) {
            double t0 = omp_get_wtime();
#pragma omp target teams distribute parallel for
            for (int i = 0; i < n; i++)
                c[i] = a[i];
            double t1 = omp_get_wtime();
#pragma omp target teams distribute parallel for
            for (int i = 0; i < n; i++)
                b[i] = scalar * c[i];
            double t2 = omp_get_wtime();
#pragma omp target teams distribute parallel for
            for (int i = 0; i < n; i++)
                c[i] = a[i] + b[i];
            double t3 = omp_get_wtime();
#pragma omp target teams distribute parallel for
            for (int i = 0; i < n; i++)
                a[i] = b[i] + scalar * c[i];
            double t4 = omp_get_wtime();
            sum = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum)
            for (int i = 0; i < n; i++)
                sum += a[i] * b[i];
            double t5 = omp_get_wtime();
            times[0][k] = t1 - t0;
            times[1][k] = t2 - t1;
            times[2][k] = t3 - t2;
            times[3][k] = t4 - t3;
            times[4][k] = t5 - t4;
        }
#pragma omp target update from(a[0:n], b[0:n], c[0:n])
    }
    const char *names[5] = {"copy", "mul", "add", "triad", "dot"};
    const double arrays[5] = {2, 2, 3, 3, 2};
    for (int k = 0; k < 5; k++) {
        double t = best(times[k]);
        printf("stream %s n=%d best %.6f ms %.1f GB/s\n", names[k], n, t * 1e3,
               arrays[k] * sizeof(double) * n / t * 1e-9);
    }
    // The values every element must hold, by the same arithmetic on scalars.
    double ga = 0.1, gb = 0.2, gc = 0.0;
    for (int k = 0; k < NTIMES; k++) {
        gc = ga;
        gb = scalar * gc;
        gc = ga + gb;
        ga = gb + scalar * gc;
    }
    double err = 0.0;
    for (int i = 0; i < n; i++)
        err = fmax(err, fmax(fabs(a[i] - ga), fmax(fabs(b[i] - gb), fabs(c[i] - gc))));
    double gsum = ga * gb * n;
    int ok = err <= 1e-8 * fabs(ga) && fabs(sum - gsum) <= 1e-8 * fabs(gsum);
    printf("stream check %s\n", ok ? "ok" : "FAILED");
    free(a);
    free(b);
    free(c);
    return ok ? 0 : 1;
}
