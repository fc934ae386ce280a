// heat-3d: TSTEPS steps of the 7-point heat equation on an N^3 grid, ping-ponging between A
// and B (PolyBench HEAT-3D, collapse(3)).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N 256
#else
#define N 32
#endif
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

int main(void) {
    int n = N;
    int nn = n * n;
    double *A = malloc(sizeof(double) * nn * n);
    double *B = malloc(sizeof(double) * nn * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                A[i * nn + j * n + k] = (double)(i + j + (n - k)) * 10 / n;
                B[i * nn + j * n + k] = A[i * nn + j * n + k];
            }
#pragma omp target data map(tofrom : A[0:nn * n], B[0:nn * n])
    for (int t = 0; t < TSTEPS; t++) {
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : A[0:nn * n], B[0:nn * n])
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                for (int k = 1; k < n - 1; k++) {
                    int c = i * nn + j * n + k;
                    B[c] = 0.125 * (A[c + nn] - 2.0 * A[c] + A[c - nn]) +
                           0.125 * (A[c + n] - 2.0 * A[c] + A[c - n]) +
                           0.125 * (A[c + 1] - 2.0 * A[c] + A[c - 1]) + A[c];
                }
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : A[0:nn * n], B[0:nn * n])
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                for (int k = 1; k < n - 1; k++) {
                    int c = i * nn + j * n + k;
                    A[c] = 0.125 * (B[c + nn] - 2.0 * B[c] + B[c - nn]) +
                           0.125 * (B[c + n] - 2.0 * B[c] + B[c - n]) +
                           0.125 * (B[c + 1] - 2.0 * B[c] + B[c - 1]) + B[c];
                }
    }
    double sum = 0.0;
    for (int i = 0; i < nn * n; i++)
        sum += A[i] * (double)(i % 9 + 1);
    printf("heat3d n=%d checksum %.9e\n", n, sum);
    free(A);
    free(B);
    return 0;
}
