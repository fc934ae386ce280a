// dot: sum of x[i]*y[i] over N doubles, an OpenMP reduction on the device.
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N (1 << 25)
#else
#define N 100000
#endif
#endif

int main(void) {
    int n = N;
    double *x = malloc(sizeof(double) * n);
    double *y = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 23) * 0.125;
        y[i] = (double)(i % 7) - 2.0;
    }
    double sum = 0.0;
#pragma omp target teams distribute parallel for map(to : x[0:n], y[0:n]) reduction(+ : sum)
    for (int i = 0; i < n; i++)
        sum += x[i] * y[i];
    printf("dot n=%d checksum %.9e\n", n, sum);
    free(x);
    free(y);
    return 0;
}
