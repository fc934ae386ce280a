/* In the shape of Rodinia srad: speckle-reducing anisotropic diffusion of an image. Each
 * iteration takes statistics of a region of interest with a float reduction, computes per-pixel
 * diffusion coefficients (exp of the image at setup, divisions, clamping) and then updates the
 * image, on malloc'ed pointers to VLAs: double (*img)[cols] = malloc(...). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERS 6

static double clamp01(double v)
{
    return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

static void srad(int rows, int cols, double (*J)[cols], double (*c)[cols], double (*dN)[cols],
                 double (*dS)[cols], double (*dW)[cols], double (*dE)[cols], double lambda)
{
    int r1 = 0, r2 = rows / 4, c1 = 0, c2 = cols / 4; /* region of interest */
    int size = (r2 - r1 + 1) * (c2 - c1 + 1);
    for (int it = 0; it < ITERS; it++) {
        double sum = 0.0, sum2 = 0.0;
#pragma omp parallel for reduction(+ : sum, sum2)
        for (int i = r1; i <= r2; i++)
            for (int j = c1; j <= c2; j++) {
                sum += J[i][j];
                sum2 += J[i][j] * J[i][j];
            }
        double mean = sum / size, var = sum2 / size - mean * mean;
        double q0sqr = var / (mean * mean);
#pragma omp parallel for
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) {
                double jc = J[i][j];
                dN[i][j] = J[i > 0 ? i - 1 : 0][j] - jc;
                dS[i][j] = J[i < rows - 1 ? i + 1 : rows - 1][j] - jc;
                dW[i][j] = J[i][j > 0 ? j - 1 : 0] - jc;
                dE[i][j] = J[i][j < cols - 1 ? j + 1 : cols - 1] - jc;
                double g2 = (dN[i][j] * dN[i][j] + dS[i][j] * dS[i][j] + dW[i][j] * dW[i][j] +
                             dE[i][j] * dE[i][j]) / (jc * jc);
                double l = (dN[i][j] + dS[i][j] + dW[i][j] + dE[i][j]) / jc;
                double num = 0.5 * g2 - (1.0 / 16.0) * (l * l);
                double den = 1.0 + 0.25 * l;
                double qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr));
                c[i][j] = clamp01(1.0 / (1.0 + den));
            }
#pragma omp parallel for
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) {
                double cn = c[i][j], cs = c[i < rows - 1 ? i + 1 : rows - 1][j];
                double cw = c[i][j], ce = c[i][j < cols - 1 ? j + 1 : cols - 1];
                double d = cn * dN[i][j] + cs * dS[i][j] + cw * dW[i][j] + ce * dE[i][j];
                J[i][j] = J[i][j] + 0.25 * lambda * d;
            }
    }
}

int main(void)
{
    int rows = 48, cols = 56;
    double (*J)[cols] = malloc(rows * sizeof *J);
    double (*c)[cols] = malloc(rows * sizeof *c);
    double (*dN)[cols] = malloc(rows * sizeof *dN), (*dS)[cols] = malloc(rows * sizeof *dS);
    double (*dW)[cols] = malloc(rows * sizeof *dW), (*dE)[cols] = malloc(rows * sizeof *dE);
#pragma omp parallel for
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double pix = ((i * 37 + j * 91) % 101) / 101.0 + ((i / 12 + j / 14) % 2) * 0.5;
            J[i][j] = exp(pix / 2.0);
        }
    srad(rows, cols, J, c, dN, dS, dW, dE, 0.5);
    double total = 0.0, lo = 1e30, hi = 0.0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double v = log(J[i][j]) * 2.0;
            total += v;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    printf("mean=%.6f min=%.6f max=%.6f J[5][7]=%.6f J[40][50]=%.6f\n", total / (rows * cols), lo,
           hi, J[5][7], J[40][50]);
    free(J);
    free(c);
    free(dN);
    free(dS);
    free(dW);
    free(dE);
    return 0;
}
