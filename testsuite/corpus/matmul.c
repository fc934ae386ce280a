/* Dense matrix multiplication: naive, loop-interchanged and blocked versions must agree.
 * Checks the results against each other and prints a checksum with limited precision. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 96
#define BS 16

static double A[N][N], B[N][N], C1[N][N], C2[N][N], C3[N][N];

static void init(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * 7 + j * 3) % 11) - 5.0;
            B[i][j] = (double)((i * 5 + j * 13) % 17) / 8.0;
        }
}

static void matmul_naive(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C1[i][j] = s;
        }
}

static void matmul_ikj(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            C2[i][j] = 0.0;
        for (int k = 0; k < N; k++) {
            double a = A[i][k];
            for (int j = 0; j < N; j++)
                C2[i][j] += a * B[k][j];
        }
    }
}

static void matmul_blocked(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C3[i][j] = 0.0;
    for (int ii = 0; ii < N; ii += BS)
        for (int kk = 0; kk < N; kk += BS)
            for (int jj = 0; jj < N; jj += BS)
                for (int i = ii; i < ii + BS; i++)
                    for (int k = kk; k < kk + BS; k++) {
                        double a = A[i][k];
                        for (int j = jj; j < jj + BS; j++)
                            C3[i][j] += a * B[k][j];
                    }
}

static double max_diff(double (*x)[N], double (*y)[N])
{
    double m = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double d = fabs(x[i][j] - y[i][j]);
            if (d > m)
                m = d;
        }
    return m;
}

int main(void)
{
    init();
    matmul_naive();
    matmul_ikj();
    matmul_blocked();
    double trace = 0.0, sum = 0.0;
    for (int i = 0; i < N; i++) {
        trace += C1[i][i];
        for (int j = 0; j < N; j++)
            sum += C1[i][j];
    }
    printf("trace=%.6g sum=%.6g\n", trace, sum);
    printf("C[0][0]=%.6g C[%d][%d]=%.6g\n", C1[0][0], N - 1, N - 1, C1[N - 1][N - 1]);
    int ok = max_diff(C1, C2) < 1e-9 && max_diff(C1, C3) < 1e-9;
    printf("variants agree: %s\n", ok ? "yes" : "no");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
