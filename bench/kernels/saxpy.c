// saxpy: y = a*x + y over N floats (BLAS level 1, bandwidth bound).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N (1 << 26)
#else
#define N 100000
#endif
#endif

int main(void) {
    int n = N;
    float a = 2.5f;
    float *x = malloc(sizeof(float) * n);
    float *y = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 97) * 0.25f;
        y[i] = (float)(i % 13) - 6.0f;
    }
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 7 + 1);
    printf("saxpy n=%d checksum %.9e\n", n, sum);
    free(x);
    free(y);
    return 0;
}
