/* In the shape of PolyBench covariance: column means, centring, and the symmetric covariance
 * matrix (only j >= i computed, the triangle mirrored), on a malloc'ed pointer to a VLA of data.
 * The triangular loop uses schedule(dynamic) to balance rows of decreasing length. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 120, m = 64; /* n observations of m variables */
    double (*data)[m] = malloc(n * sizeof *data);
    double (*cov)[m] = malloc(m * sizeof *cov);
    double *mean = malloc(m * sizeof *mean);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            data[i][j] = ((i * j) % 17) + ((i + 2 * j) % 5) * 0.5 - 4.0;
#pragma omp parallel for
    for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += data[i][j];
        mean[j] = s / n;
    }
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            data[i][j] -= mean[j];
#pragma omp parallel for schedule(dynamic, 2)
    for (int i = 0; i < m; i++)
        for (int j = i; j < m; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += data[k][i] * data[k][j];
            cov[i][j] = s / (n - 1.0);
            cov[j][i] = cov[i][j];
        }
    double trace = 0.0, off = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            if (i == j)
                trace += cov[i][j];
            else
                off += cov[i][j] * ((i + j) % 2 ? 1.0 : -1.0);
        }
    printf("trace=%.6f alternating off-diagonal sum=%.6f cov[0][1]=%.6f cov[5][40]=%.6f "
           "cov[63][63]=%.6f\n",
           trace, off, cov[0][1], cov[5][40], cov[m - 1][m - 1]);
    free(data);
    free(cov);
    free(mean);
    return 0;
}
