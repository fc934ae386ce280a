// sweep, natural: a 3-point smoothing filter run along each row by one thread (the running
// value carries a recurrence along the row, so the row cannot be split among threads), each
// element of `a` read at three consecutive iterations as a[c+1], a[c] and a[c-1].
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
        float run = 0.0f;
        b[r * cols] = 0.0f;
        b[r * cols + cols - 1] = 0.0f;
        for (int c = 1; c < cols - 1; c++) {
            run = 0.5f * run + 0.25f * a[r * cols + c - 1] + 0.5f * a[r * cols + c] +
                  0.25f * a[r * cols + c + 1];
            b[r * cols + c] = run;
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
