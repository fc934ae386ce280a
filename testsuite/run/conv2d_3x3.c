/* A 3x3 convolution with the stencil fully unrolled by hand (the gpucc paper's running example
 * shape), on a 96x96 float image, with clamped borders in a device function that receives the
 * mapped image as a pointer (a global it named itself would be an implicit declare target
 * variable, which `map(to:)` does not update). */
#include <stdio.h>

#define W 96
#define H 96

static float img[H][W], out[H][W];

#pragma omp declare target
static inline float at(const float (*im)[W], int y, int x)
{
    y = y < 0 ? 0 : (y >= H ? H - 1 : y);
    x = x < 0 ? 0 : (x >= W ? W - 1 : x);
    return im[y][x];
}
#pragma omp end declare target

int main(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = (float)((x * 13 + y * 7) % 32) * 0.0625f;
    const float c0 = 0.25f, c1 = 0.125f, c2 = 0.0625f;
#pragma omp target teams distribute parallel for collapse(2) map(to : img) map(from : out)
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            out[y][x] = c2 * at(img, y - 1, x - 1) + c1 * at(img, y - 1, x) +
                        c2 * at(img, y - 1, x + 1) + c1 * at(img, y, x - 1) + c0 * at(img, y, x) +
                        c1 * at(img, y, x + 1) + c2 * at(img, y + 1, x - 1) +
                        c1 * at(img, y + 1, x) + c2 * at(img, y + 1, x + 1);
    double s = 0.0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            s += out[y][x];
    printf("sum=%.6f out[0][0]=%.6f out[50][17]=%.6f out[95][95]=%.6f\n", s, out[0][0],
           out[50][17], out[H - 1][W - 1]);
    return 0;
}
