/* A generic teams region whose sequential code points at its own locals (a scalar through
 * `&` and an array decaying to a pointer) and hands the pointers to nested parallel loops:
 * the values must arrive as written. (ompcc keeps such a region on one thread per team: the
 * other threads could not read the main thread's stack.) */
#include <stdio.h>

#define N 1000

int main(void)
{
    double out[4][N];
#pragma omp target teams num_teams(4) map(from : out)
    {
        int t = 0;
#pragma omp distribute
        for (int k = 0; k < 4; k++)
            t = k;
        double scale = 1.5 + t;
        double *ps = &scale;
        double table[3] = {10.0 * t, 20.0, 30.0};
        double *row = table;
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            out[t][i] = *ps * i + row[i % 3];
        scale = 2.0;
#pragma omp parallel for
        for (int i = 0; i < N; i += 7)
            out[t][i] += *ps;
    }
    double sum = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < N; i++)
            sum += out[k][i] * (k + 1);
    printf("sum %.3f first %.3f %.3f last %.3f\n", sum, out[0][0], out[1][1], out[3][N - 1]);
    return 0;
}
