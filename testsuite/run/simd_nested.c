/* `simd` and `parallel for simd` nested inside device regions: a simd reduction inside each
 * iteration of a distributed loop, a `parallel for simd` inside `target teams distribute`, and
 * `for simd` inside `target parallel`. */
#include <stdio.h>

#define R 128
#define C 96

static double m[R][C], rowsum[R];
static int flags[R * C];

int main(void)
{
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            m[i][j] = ((i * 5 + j * 3) % 16) * 0.125;
#pragma omp target teams distribute parallel for map(to : m) map(from : rowsum)
    for (int i = 0; i < R; i++) {
        double s = 0.0;
#pragma omp simd reduction(+ : s)
        for (int j = 0; j < C; j++)
            s += m[i][j] * m[i][j];
        rowsum[i] = s;
    }
#pragma omp target teams distribute map(tofrom : m)
    for (int i = 0; i < R; i++) {
#pragma omp parallel for simd
        for (int j = 0; j < C; j++)
            m[i][j] = m[i][j] * 2.0 - 1.0;
    }
#pragma omp target parallel map(to : m) map(from : flags)
    {
#pragma omp for simd collapse(2)
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                flags[i * C + j] = m[i][j] > 0.0;
    }
    double total = 0;
    long nflags = 0;
    for (int i = 0; i < R; i++)
        total += rowsum[i];
    for (int k = 0; k < R * C; k++)
        nflags += flags[k];
    printf("total=%.6f rowsum[3]=%.6f positives=%ld m[100][50]=%.6f\n", total, rowsum[3], nflags,
           m[100][50]);
    return 0;
}
