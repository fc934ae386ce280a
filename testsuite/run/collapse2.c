/* collapse(2) on rectangular loops with non-unit lower bounds and steps, a loop nest writing a
 * transposed array, and collapse(2) with a reduction. */
#include <stdio.h>

#define R 60
#define C 70

static int a[R][C], t[C][R];

int main(void)
{
#pragma omp target teams distribute parallel for collapse(2) map(from : a)
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            a[i][j] = i * 1000 + j;
#pragma omp target teams distribute parallel for collapse(2) map(to : a) map(from : t)
    for (int j = 0; j < C; j++)
        for (int i = 0; i < R; i++)
            t[j][i] = a[i][j] * 2;
    long sum = 0;
#pragma omp target teams distribute parallel for collapse(2) reduction(+ : sum) map(to : t)
    for (int j = 3; j < C; j += 2)
        for (int i = R - 1; i >= 5; i -= 3)
            sum += t[j][i];
    long check = 0;
    for (int j = 3; j < C; j += 2)
        for (int i = R - 1; i >= 5; i -= 3)
            check += t[j][i];
    printf("t[5][7]=%d t[69][59]=%d sum=%ld check=%ld\n", t[5][7], t[69][59], sum, check);
    int counts[R] = {0};
#pragma omp target parallel for collapse(2) map(tofrom : counts)
    for (int i = 0; i < R; i++)
        for (int j = 0; j < 10; j++) {
#pragma omp atomic
            counts[i] += j;
        }
    long cs = 0;
    for (int i = 0; i < R; i++)
        cs += counts[i] * (i + 1);
    printf("counts[0]=%d weighted=%ld\n", counts[0], cs);
    return 0;
}
