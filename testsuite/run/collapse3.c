/* collapse(3) over a 3-D grid (a 7-point stencil on 24^3), with a reduction over all three
 * loops, and collapse(3) with an odd-sized innermost loop. */
#include <stdio.h>

#define N 24

static double in[N][N][N], out[N][N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                in[i][j][k] = (double)((i * 7 + j * 3 + k) % 19) * 0.125;
#pragma omp target teams distribute parallel for collapse(3) map(to : in) map(from : out)
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            for (int k = 1; k < N - 1; k++)
                out[i][j][k] = 0.4 * in[i][j][k] +
                               0.1 * (in[i - 1][j][k] + in[i + 1][j][k] + in[i][j - 1][k] +
                                      in[i][j + 1][k] + in[i][j][k - 1] + in[i][j][k + 1]);
    double total = 0.0;
    long cells = 0;
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : total, cells) map(to : out)
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            for (int k = 1; k < N - 1; k += 3) {
                total += out[i][j][k];
                cells++;
            }
    printf("total=%.10g cells=%ld out[1][2][3]=%.10g out[22][22][22]=%.10g\n", total, cells,
           out[1][2][3], out[22][22][22]);
    return 0;
}
