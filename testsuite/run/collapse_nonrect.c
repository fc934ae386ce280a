/* Non-rectangular collapsed nests (OpenMP 5.0): inner bounds that use an outer loop's
 * variable (triangular, banded, downward), loop variables declared before the construct,
 * collapse(3) whose innermost loop depends on the middle one, on teams and on one team. */
#include <stdio.h>

#define N 20

int main(void)
{
    static double m[N][N];
    long cnt = 0;
    int i, j;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : m) reduction(+ : cnt)
    for (i = 0; i < N; i++)
        for (j = 0; j <= i; j++) {
            m[i][j] = i + 0.25 * j;
            cnt++;
        }
    double lower = 0;
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++)
            lower += m[a][b];
    printf("cnt=%ld lower=%.2f\n", cnt, lower);

    /* the upper triangle from the diagonal, in one team; then downward, excluding it */
    static int band[N][N];
    int bsum = 0;
#pragma omp target parallel for collapse(2) map(tofrom : band) reduction(+ : bsum)
    for (int r = 0; r < N; r++)
        for (int c = r; c < N; c++) {
            band[r][c] = r * 100 + c;
            bsum += c - r;
        }
    int upper = 0;
#pragma omp target teams distribute parallel for collapse(2) map(to : band) reduction(+ : upper)
    for (int r = 0; r < N; r++)
        for (int c = N - 1; c > r; c--)
            upper += band[r][c] != 0;
    printf("bsum=%d band[5][7]=%d band[5][8]=%d upper=%d\n", bsum, band[5][7], band[5][8], upper);

    /* collapse(3): k runs up to j, j over a rectangle with i */
    long t = 0;
#pragma omp target teams distribute parallel for collapse(3) reduction(+ : t)
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 7; b++)
            for (int k = 0; k < b; k++)
                t += a * 100 + b * 10 + k;
    printf("t=%ld\n", t);
    return 0;
}
