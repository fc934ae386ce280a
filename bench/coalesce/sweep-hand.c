// sweep, hand-cached: the same filter with the row's values rotated through three registers
// by hand (left, mid, right), so each element of `a` is loaded once.
#include <stdio.h>
#include <stdlib.h>

#ifndef R
#define R 1024
#endif
#ifndef C
#define C 256
#endif

int main(void) {
    int rows = R, cols = C;
    float *a = malloc(sizeof(float) * rows * cols);
    float *b = malloc(sizeof(float) * rows * cols);
    for (int i = 0; i < rows * cols; i++)
        a[i] = (float)((i * 37) % 101) / 64.0f;
#pragma omp target teams distribute parallel for map(to : a[0:rows * cols]) \
    map(from : b[0:rows * cols])
    for (int r = 0; r < rows; r++) {
        const float *row = a + r * cols;
        float run = 0.0f;
        float left = row[0], mid = row[1];
        b[r * cols] = 0.0f;
        b[r * cols + cols - 1] = 0.0f;
        for (int c = 1; c < cols - 1; c++) {
            float right = row[c + 1];
            run = 0.5f * run + 0.25f * left + 0.5f * mid + 0.25f * right;
            b[r * cols + c] = run;
            left = mid;
            mid = right;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < rows * cols; i++)
        sum += b[i] * (double)(i % 7 + 1);
    printf("sweep %dx%d checksum %.9e\n", rows, cols, sum);
    free(a);
    free(b);
    return 0;
}
