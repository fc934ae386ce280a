/* In the shape of PolyBench atax: y = A^T (A x) on global fixed-size arrays, as two parallel
 * loops: tmp = A x over rows (a lastprivate accumulator, printed after the loop), then
 * y = A^T tmp over columns. Inputs are multiples of 1/32, so all sums are exact. */
#include <stdio.h>

#define M 180
#define N 200

static double A[M][N], x[N], y[N], tmp[M];

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = ((i + j) % N) / 32.0 - ((i * j) % 7) / 32.0;
    for (int j = 0; j < N; j++)
        x[j] = 1.0 + (j % 5) / 4.0;
    double acc;
#pragma omp parallel for lastprivate(acc)
    for (int i = 0; i < M; i++) {
        acc = 0.0;
        for (int j = 0; j < N; j++)
            acc += A[i][j] * x[j];
        tmp[i] = acc;
    }
#pragma omp parallel for
    for (int j = 0; j < N; j++) {
        double s = 0.0;
        for (int i = 0; i < M; i++)
            s += A[i][j] * tmp[i];
        y[j] = s;
    }
    double sum = 0.0;
    for (int j = 0; j < N; j++)
        sum += y[j] * (j % 3 + 1);
    printf("checksum=%.6f y[0]=%.6f y[99]=%.6f y[199]=%.6f tmp[7]=%.6f last acc=%.6f\n", sum,
           y[0], y[99], y[N - 1], tmp[7], acc);
    return 0;
}
