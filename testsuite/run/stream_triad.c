/* STREAM kernels: copy, scale, add, triad on 10000 doubles, repeated 3 times in one data
 * region, with the checksum of each array at the end and the expected closed-form values. */
#include <stdio.h>

#define N 10000
#define REPS 3

static double a[N], b[N], c[N];

int main(void)
{
    const double scalar = 3.0;
    for (int i = 0; i < N; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
#pragma omp target data map(tofrom : a, b, c)
    for (int k = 0; k < REPS; k++) {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            c[i] = a[i];
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            b[i] = scalar * c[i];
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            c[i] = a[i] + b[i];
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            a[i] = b[i] + scalar * c[i];
    }
    double sa = 0, sb = 0, sc = 0;
    for (int i = 0; i < N; i++) {
        sa += a[i];
        sb += b[i];
        sc += c[i];
    }
    double ea = 1.0, eb = 2.0, ec = 0.0;
    for (int k = 0; k < REPS; k++) {
        ec = ea;
        eb = scalar * ec;
        ec = ea + eb;
        ea = eb + scalar * ec;
    }
    printf("a=%.6f b=%.6f c=%.6f expected=%.6f %.6f %.6f\n", sa, sb, sc, ea * N, eb * N, ec * N);
    return 0;
}
