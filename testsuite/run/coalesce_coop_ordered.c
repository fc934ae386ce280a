/* Warp-cooperative inner loops in order (issue 16): floating-point row sums that ompcc -O2
 * gives to a group of lanes without reordering them (the lanes evaluate the terms, every
 * lane adds them in the loop's order): a float dot product per row (45 columns: a last run
 * shorter than the group), a double one, 's = s + e', a product 's *= e', a CSR row sum with
 * empty and long rows, a value before the loop and statements after it (with -DHEX, printed
 * in hexadecimal: the driver test checks them bit for bit against the loops run one thread
 * per row without contraction). And rows where it must not fire: two updates in the body, a
 * term that is not in the sum's type, an update by '-'. */
#include <stdio.h>
#include <stdlib.h>

#define N 70
#define M 45

int main(void)
{
    int n = N, m = M;
    float *a = malloc(sizeof(float) * n * m), *x = malloc(sizeof(float) * m);
    double *d = malloc(sizeof(double) * n * m);
    float *y = malloc(sizeof(float) * n), *y2 = malloc(sizeof(float) * n);
    double *dy = malloc(sizeof(double) * n), *py = malloc(sizeof(double) * n);
    for (int i = 0; i < n * m; i++) {
        a[i] = 1.0f / (float)(1 + (i * 7) % 31) - 0.03f * (i % 5);
        d[i] = 1.0 + 1.0 / (double)(3 + (i * 13) % 17);
    }
    for (int j = 0; j < m; j++)
        x[j] = 0.1f * (float)((j * 5) % 9) - 0.37f;
    /* CSR: row i has (i * 7) % 23 nonzeros, row 10 has 200 */
    int *rowptr = malloc(sizeof(int) * (n + 1));
    rowptr[0] = 0;
    for (int i = 0; i < n; i++)
        rowptr[i + 1] = rowptr[i] + (i == 10 ? 200 : (i * 7) % 23);
    int nnz = rowptr[n];
    int *col = malloc(sizeof(int) * nnz);
    float *val = malloc(sizeof(float) * nnz);
    for (int k = 0; k < nnz; k++) {
        col[k] = (k * 11) % m;
        val[k] = 0.5f + 1.0f / (float)(2 + k % 13);
    }
    float *sy = malloc(sizeof(float) * n);
#pragma omp target data map(to : a[0:n * m], x[0:m], d[0:n * m])
    {
        /* fires: a float dot product per row, a value before the loop */
#pragma omp target teams distribute parallel for map(from : y[0:n])
        for (int i = 0; i < n; i++) {
            float s = 0.25f * i;
            for (int j = 0; j < m; j++)
                s += a[i * m + j] * x[j];
            y[i] = s;
        }
        /* fires: a double sum, written s = s + e, with statements after the loop */
#pragma omp target teams distribute parallel for map(from : dy[0:n])
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int j = 0; j < m; j++)
                s = s + d[i * m + j] / (j + 1);
            if (i % 3 == 0)
                s = -s;
            dy[i] = s;
        }
        /* fires: a product */
#pragma omp target teams distribute parallel for map(from : py[0:n])
        for (int i = 0; i < n; i++) {
            double p = 1.0;
            for (int j = 0; j < m; j++)
                p *= d[i * m + j];
            py[i] = p;
        }
        /* must not fire: two updates in the body; a term computed in double for a float sum;
         * an update by '-' */
#pragma omp target teams distribute parallel for map(from : y2[0:n])
        for (int i = 0; i < n; i++) {
            float s = 0.0f;
            for (int j = 0; j < m; j++) {
                s += a[i * m + j];
                s += x[j];
            }
            y2[i] = s;
        }
#pragma omp target teams distribute parallel for map(tofrom : y2[0:n])
        for (int i = 0; i < n; i++) {
            float s = y2[i];
            for (int j = 0; j < m; j++)
                s += a[i * m + j] * 0.5;
            y2[i] = s;
        }
#pragma omp target teams distribute parallel for map(tofrom : y2[0:n])
        for (int i = 0; i < n; i++) {
            float s = y2[i];
            for (int j = 0; j < m; j++)
                s -= a[i * m + j];
            y2[i] = s;
        }
    }
    /* fires: a CSR row sum (rows from empty to 200 nonzeros) */
#pragma omp target teams distribute parallel for map(to : rowptr[0:n + 1], col[0:nnz], val[0:nnz], x[0:m]) map(from : sy[0:n])
    for (int i = 0; i < n; i++) {
        float t = 0.0f;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            t += val[k] * x[col[k]];
        sy[i] = t;
    }
    for (int i = 0; i < n; i += 7)
#ifdef HEX
        printf("%d: %a %a %a %a %a\n", i, y[i], dy[i], py[i], y2[i], sy[i]);
#else
        printf("%d: %.9g %.17g %.17g %.9g %.9g\n", i, y[i], dy[i], py[i], y2[i], sy[i]);
#endif
    printf("10: %.9g\n", sy[10]);
    void *all[] = {a, x, d, y, y2, dy, py, rowptr, col, val, sy};
    for (int k = 0; k < 11; k++)
        free(all[k]);
    return 0;
}
