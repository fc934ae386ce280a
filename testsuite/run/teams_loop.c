/* `target teams loop` (and `loop` nested in `target teams` and `target parallel`): a vector
 * update, a collapsed loop and a reduction. */
#include <stdio.h>

#define N 10000
#define M 64

int main(void)
{
    static double a[N], b[N];
    static int grid[M][M];
    for (int i = 0; i < N; i++)
        b[i] = (i % 17) * 0.5;
#pragma omp target teams loop map(to : b) map(from : a)
    for (int i = 0; i < N; i++)
        a[i] = 2.0 * b[i] + 1.0;
#pragma omp target teams loop collapse(2) map(from : grid)
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            grid[i][j] = (i ^ j) & 15;
    double sum = 0.0;
#pragma omp target teams loop reduction(+ : sum) map(to : a)
    for (int i = 0; i < N; i++)
        sum += a[i];
    long g = 0;
#pragma omp target teams map(to : grid) map(tofrom : g)
#pragma omp loop reduction(+ : g)
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            g += grid[i][j] * (i + 1);
    int cnt = 0;
#pragma omp target parallel map(tofrom : cnt, a)
    {
#pragma omp loop
        for (int i = 0; i < N; i++)
            a[i] -= 1.0;
    }
    for (int i = 0; i < N; i++)
        cnt += a[i] == 2.0 * b[i];
    printf("sum=%.6f g=%ld a[123]=%.6f cnt=%d grid[5][9]=%d\n", sum, g, a[123], cnt, grid[5][9]);
    return 0;
}
