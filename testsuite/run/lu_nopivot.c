/* LU factorisation without pivoting of a diagonally dominant 64x64 matrix: host loop over the
 * pivot, a kernel for the multipliers and a collapse(2) kernel for the trailing update, then
 * forward/back substitution on the host and the residual. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#define N 64

static double A[N][N], LU[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = LU[i][j] = (i == j) ? N + 1.0 : 1.0 / (1 + abs(i - j)) - 0.1 * ((i + j) % 3);
#pragma omp target data map(tofrom : LU)
    for (int k = 0; k < N - 1; k++) {
#pragma omp target teams distribute parallel for
        for (int i = k + 1; i < N; i++)
            LU[i][k] /= LU[k][k];
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = k + 1; i < N; i++)
            for (int j = k + 1; j < N; j++)
                LU[i][j] -= LU[i][k] * LU[k][j];
    }
    double b[N], y[N], x[N];
    for (int i = 0; i < N; i++)
        b[i] = 1.0 + i % 4;
    for (int i = 0; i < N; i++) {
        y[i] = b[i];
        for (int j = 0; j < i; j++)
            y[i] -= LU[i][j] * y[j];
    }
    for (int i = N - 1; i >= 0; i--) {
        x[i] = y[i];
        for (int j = i + 1; j < N; j++)
            x[i] -= LU[i][j] * x[j];
        x[i] /= LU[i][i];
    }
    double res = 0, det_log = 0;
    for (int i = 0; i < N; i++) {
        double r = -b[i];
        for (int j = 0; j < N; j++)
            r += A[i][j] * x[j];
        res = fmax(res, fabs(r));
        det_log += log(fabs(LU[i][i]));
    }
    printf("small_residual=%d log|det|=%.10g x[0]=%.10g x[63]=%.10g LU[63][63]=%.10g\n",
           res < 1e-10, det_log, x[0], x[N - 1], LU[N - 1][N - 1]);
    return 0;
}
