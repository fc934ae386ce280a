/* In the shape of Rodinia hotspot: transient chip temperature on a 2-D grid from a power map,
 * explicit time steps, ping-pong between two global fixed-size arrays; the stencil loop is
 * collapse(2) and clamps neighbour indices at the chip edge through a static helper. */
#include <stdio.h>

#define ROWS 64
#define COLS 64
#define STEPS 40

static double temp[ROWS][COLS], next[ROWS][COLS], power[ROWS][COLS];

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int main(void)
{
    const double amb = 80.0, cap = 0.5, rx = 0.125, ry = 0.125, rz = 0.0625, step = 0.5;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            temp[i][j] = 80.0 + ((i * 3 + j * 5) % 16) * 0.25;
            power[i][j] = ((i / 8 + j / 8) % 3 == 0) ? 0.5 : 0.0625;
        }
    for (int t = 0; t < STEPS; t++) {
#pragma omp parallel for collapse(2) schedule(static)
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++) {
                double c = temp[i][j];
                double n = temp[clampi(i - 1, 0, ROWS - 1)][j];
                double s = temp[clampi(i + 1, 0, ROWS - 1)][j];
                double w = temp[i][clampi(j - 1, 0, COLS - 1)];
                double e = temp[i][clampi(j + 1, 0, COLS - 1)];
                double delta = (step / cap) * (power[i][j] + (n + s - 2.0 * c) * ry +
                                               (e + w - 2.0 * c) * rx + (amb - c) * rz);
                next[i][j] = c + delta;
            }
#pragma omp parallel for collapse(2)
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++)
                temp[i][j] = next[i][j];
    }
    double sum = 0.0, hottest = 0.0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            sum += temp[i][j];
            hottest = temp[i][j] > hottest ? temp[i][j] : hottest;
        }
    printf("mean=%.6f hottest=%.6f t[0][0]=%.6f t[31][17]=%.6f t[63][63]=%.6f\n",
           sum / (ROWS * COLS), hottest, temp[0][0], temp[31][17], temp[ROWS - 1][COLS - 1]);
    return 0;
}
