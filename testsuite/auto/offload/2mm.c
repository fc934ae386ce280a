/* In the shape of PolyBench 2mm: D = alpha*A*B*C + beta*D computed as tmp = A*B, then
 * D = tmp*C scaled. One matrix-multiply helper (collapse(2), firstprivate scale factors) is
 * called twice, on malloc'ed pointers to VLAs, double (*a)[nk] = malloc(...). Inputs are
 * multiples of 1/8, so the sums are exact. */
#include <stdio.h>
#include <stdlib.h>

/* out = s * out + t * (x * y), x: ni x nk, y: nk x nj */
static void matmul(int ni, int nj, int nk, double (*out)[nj], double (*x)[nk], double (*y)[nj],
                   double s, double t)
{
#pragma omp parallel for collapse(2) firstprivate(s, t)
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double acc = 0.0;
            for (int k = 0; k < nk; k++)
                acc += x[i][k] * y[k][j];
            out[i][j] = s * out[i][j] + t * acc;
        }
}

int main(void)
{
    int ni = 40, nj = 48, nk = 36, nl = 44;
    double (*a)[nk] = malloc(ni * sizeof *a);
    double (*b)[nj] = malloc(nk * sizeof *b);
    double (*c)[nl] = malloc(nj * sizeof *c);
    double (*d)[nl] = malloc(ni * sizeof *d);
    double (*tmp)[nj] = malloc(ni * sizeof *tmp);
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            a[i][k] = ((i * k + 1) % ni) / 8.0;
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++)
            b[k][j] = (k * (j + 1) % nj) / 8.0;
    for (int j = 0; j < nj; j++)
        for (int l = 0; l < nl; l++)
            c[j][l] = ((j * (l + 3) + 1) % nl) / 8.0;
    for (int i = 0; i < ni; i++)
        for (int l = 0; l < nl; l++)
            d[i][l] = (i * (l + 2) % nk) / 8.0;
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            tmp[i][j] = 0.0;
    matmul(ni, nj, nk, tmp, a, b, 0.0, 1.5);
    matmul(ni, nl, nj, d, tmp, c, 1.25, 1.0);
    double sum = 0.0;
    for (int i = 0; i < ni; i++)
        for (int l = 0; l < nl; l++)
            sum += d[i][l] * (1 + (i + l) % 4);
    printf("checksum=%.6f D[0][0]=%.6f D[17][23]=%.6f D[39][43]=%.6f\n", sum, d[0][0], d[17][23],
           d[ni - 1][nl - 1]);
    free(a);
    free(b);
    free(c);
    free(d);
    free(tmp);
    return 0;
}
