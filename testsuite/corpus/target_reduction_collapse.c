/* Offloaded reductions and collapsed loop nests: sum/max/min reductions on target teams
 * distribute parallel for, collapse(2) over a 2-D grid (matrix-vector and a 2-D histogram
 * by reduction into an array), and a norm computed with a combined reduction clause. */
#include <stdio.h>
#include <math.h>
#include <omp.h>

#define R 300
#define C 200

static double m[R][C], v[C], mv[R];

int main(void)
{
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            m[i][j] = ((i * 31 + j * 17) % 23) / 23.0 - 0.5;
    for (int j = 0; j < C; j++)
        v[j] = (j % 7) - 3.0 + 0.01 * j;

    long isum = 0;
    int imax = -1000000, imin = 1000000;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : isum, imax, imin) \
    reduction(+ : isum) reduction(max : imax) reduction(min : imin)
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int x = (i * 7 - j * 13) % 101;
            isum += x;
            imax = x > imax ? x : imax;
            imin = x < imin ? x : imin;
        }
    printf("collapse(2) integer reduction: sum=%ld max=%d min=%d\n", isum, imax, imin);

#pragma omp target teams distribute parallel for map(to : m, v) map(from : mv)
    for (int i = 0; i < R; i++) {
        double s = 0.0;
        for (int j = 0; j < C; j++)
            s += m[i][j] * v[j];
        mv[i] = s;
    }
    double host = 0.0, dev = 0.0;
    for (int i = 0; i < R; i++)
        dev += mv[i];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            host += m[i][j] * v[j];
    printf("matvec: mv[0]=%.6g mv[R-1]=%.6g sum=%.6g agrees: %s\n", mv[0], mv[R - 1], dev,
           fabs(host - dev) < 1e-9 ? "yes" : "no");

    double sq = 0.0, amax = 0.0;
#pragma omp target teams distribute parallel for collapse(2) map(to : m) map(tofrom : sq, amax) \
    reduction(+ : sq) reduction(max : amax)
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            sq += m[i][j] * m[i][j];
            amax = fmax(amax, fabs(m[i][j]));
        }
    printf("frobenius=%.6g max|m|=%.6g\n", sqrt(sq), amax);

    int hist[4][4] = {{0}};
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : hist) reduction(+ : hist[:4][:4])
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++)
            hist[(i * j) % 4][(i + j) % 4]++;
    printf("2-D histogram:");
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            printf(" %d", hist[a][b]);
    printf("\n");

    int count = 0;
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : count) reduction(+ : count)
    for (int a = 0; a < 20; a++)
        for (int b = 0; b < 20; b++)
            for (int c = 0; c < 20; c++)
                count += (a * a + b * b == c * c) && a > 0 && b > 0;
    printf("pythagorean triples below 20 (ordered pairs): %d\n", count);
    return 0;
}
