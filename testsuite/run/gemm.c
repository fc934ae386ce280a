/* gemm: C = alpha*A*B + beta*C on 48x48 doubles, collapse(2) over the output, a sequential
 * inner product per element; checked against a host computation. */
#include <stdio.h>
#include <math.h>

#define N 48

static double A[N][N], B[N][N], C[N][N], R[N][N];

int main(void)
{
    const double alpha = 1.5, beta = -0.5;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * 3 + j) % 11) / 11.0;
            B[i][j] = (double)((i + 5 * j) % 7) / 7.0 - 0.5;
            C[i][j] = R[i][j] = (double)(i == j);
        }
#pragma omp target teams distribute parallel for collapse(2) map(to : A, B) map(tofrom : C)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = alpha * s + beta * C[i][j];
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            R[i][j] = alpha * s + beta * R[i][j];
        }
    double sum = 0.0, maxdiff = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            sum += C[i][j];
            maxdiff = fmax(maxdiff, fabs(C[i][j] - R[i][j]));
        }
    printf("sum=%.10g agree=%d\n", sum, maxdiff < 1e-12);
    printf("C[0][0]=%.10g C[17][31]=%.10g C[47][47]=%.10g\n", C[0][0], C[17][31], C[47][47]);
    return 0;
}
