/* Mandelbrot in 32.32-style fixed point (int64 arithmetic, no floating point, so the iteration
 * counts are exact on every target), 96x64 pixels, max 200 iterations. */
#include <stdio.h>
#include <stdint.h>

#define W 96
#define H 64
#define MAXIT 200
#define FRAC 24

static int iters[H][W];

int main(void)
{
    const int64_t one = (int64_t)1 << FRAC;
#pragma omp target teams distribute parallel for collapse(2) map(from : iters)
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            int64_t cr = -2 * one + (int64_t)px * (3 * one) / W;
            int64_t ci = -one + (int64_t)py * (2 * one) / H;
            int64_t zr = 0, zi = 0;
            int it = 0;
            while (it < MAXIT) {
                int64_t zr2 = (zr * zr) >> FRAC, zi2 = (zi * zi) >> FRAC;
                if (zr2 + zi2 > 4 * one)
                    break;
                int64_t t = zr2 - zi2 + cr;
                zi = ((2 * zr * zi) >> FRAC) + ci;
                zr = t;
                it++;
            }
            iters[py][px] = it;
        }
    long total = 0;
    int inside = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            total += iters[y][x];
            inside += iters[y][x] == MAXIT;
        }
    printf("total=%ld inside=%d\n", total, inside);
    for (int y = 8; y < H; y += 16) {
        for (int x = 0; x < W; x += 4)
            putchar(iters[y][x] == MAXIT ? '#' : (iters[y][x] > 10 ? '+' : '.'));
        putchar('\n');
    }
    return 0;
}
