// triad: STREAM triad a = b + s*c over N doubles, repeated REPS times.
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N (1 << 25)
#else
#define N 100000
#endif
#endif
#ifndef REPS
#define REPS 2
#endif

int main(void) {
    int n = N;
    double s = 3.0;
    double *a = malloc(sizeof(double) * n);
    double *b = malloc(sizeof(double) * n);
    double *c = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 101) * 0.5;
        c[i] = (double)(i % 11) - 5.0;
    }
#pragma omp target data map(tofrom : a[0:n]) map(to : b[0:n], c[0:n])
    for (int r = 0; r < REPS; r++) {
#pragma omp target teams distribute parallel for map(tofrom : a[0:n]) map(to : b[0:n], c[0:n])
        for (int i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += a[i] * (double)(i % 5 + 1);
    printf("triad n=%d checksum %.9e\n", n, sum);
    free(a);
    free(b);
    free(c);
    return 0;
}
