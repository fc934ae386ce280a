/* In the shape of PolyBench gemm: C = alpha*A*B + beta*C on global fixed-size arrays, the i/j
 * loops collapse(2). Inputs are multiples of 1/16, so every product and sum is exact. */
#include <stdio.h>

#define NI 60
#define NJ 70
#define NK 80

static double A[NI][NK], B[NK][NJ], C[NI][NJ];

int main(void)
{
    const double alpha = 1.5, beta = 0.5;
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = ((i * k + 1) % NK) / 16.0;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = ((k * (j + 1)) % NJ) / 16.0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = ((i * (j + 2)) % 13) / 16.0;
#pragma omp parallel for collapse(2) schedule(static)
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            double acc = beta * C[i][j];
            for (int k = 0; k < NK; k++)
                acc += alpha * A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    double sum = 0.0, diag = 0.0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            sum += C[i][j] * ((i + j) % 3 + 1);
            if (i == j)
                diag += C[i][j];
        }
    printf("checksum=%.6f trace=%.6f C[0][0]=%.6f C[59][69]=%.6f\n", sum, diag, C[0][0],
           C[NI - 1][NJ - 1]);
    return 0;
}
