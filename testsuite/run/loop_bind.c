/* The loop construct with bind(teams|parallel|thread) and order(concurrent), and
 * `target teams loop` with reduction and collapse, as the Examples' loop chapter writes. */
#include <stdio.h>

#define N 256
#define M 16

int main(void)
{
    static float x[N], y[N];
    static double g[M][M];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 13);
        y[i] = 1.0f;
    }
#pragma omp target teams map(to : x) map(tofrom : y)
#pragma omp loop bind(teams) order(concurrent)
    for (int i = 0; i < N; i++)
        y[i] += 2.0f * x[i];

    double sum = 0;
#pragma omp target teams loop reduction(+ : sum) map(to : y)
    for (int i = 0; i < N; i++)
        sum += y[i];
    printf("sum=%.1f y[12]=%.1f\n", sum, y[12]);

#pragma omp target teams loop collapse(2) map(from : g)
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            g[i][j] = i * M + j;

#pragma omp target parallel map(tofrom : g)
    {
#pragma omp loop bind(parallel)
        for (int i = 0; i < M; i++) {
#pragma omp loop bind(thread)
            for (int j = 0; j < M; j++)
                g[i][j] *= 0.5;
        }
    }
    double t = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            t += g[i][j];
    printf("t=%.2f g[3][5]=%.2f\n", t, g[3][5]);

    int cnt = 0;
#pragma omp target teams distribute parallel for simd reduction(+ : cnt) order(concurrent)
    for (int i = 0; i < N; i++)
        cnt += (i % 3 == 0);
    printf("cnt=%d\n", cnt);
    return 0;
}
