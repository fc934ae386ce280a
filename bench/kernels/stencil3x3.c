// stencil3x3: a 3x3 weighted stencil whose taps are a constant-bound loop pair over a small
// local weight array, the shape of the gpucc paper's running example: full unrolling turns
// the loops into straight-line code, and SROA then keeps the weights in registers (this is
// the one bench kernel with an addressable local array).
// bench: local-array
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N 8192
#else
#define N 128
#endif
#endif

int main(void) {
    int n = N;
    float *in = malloc(sizeof(float) * n * n);
    float *out = malloc(sizeof(float) * n * n);
    for (int i = 0; i < n * n; i++) {
        in[i] = (float)(i % 37) / 37.0f;
        out[i] = 0.0f;
    }
#pragma omp target teams distribute parallel for collapse(2) map(to : in[0:n * n]) map(tofrom : out[0:n * n])
    for (int y = 1; y < n - 1; y++)
        for (int x = 1; x < n - 1; x++) {
            float w[3][3] = {{0.0625f, 0.125f, 0.0625f}, {0.125f, 0.25f, 0.125f},
                             {0.0625f, 0.125f, 0.0625f}};
            float sum = 0.0f;
            for (int dy = 0; dy < 3; dy++)
                for (int dx = 0; dx < 3; dx++)
                    sum += w[dy][dx] * in[(y + dy - 1) * n + (x + dx - 1)];
            out[y * n + x] = sum;
        }
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += out[i] * (double)(i % 9 + 1);
    printf("stencil3x3 n=%d checksum %.9e\n", n, sum);
    free(in);
    free(out);
    return 0;
}
