/* Irregular loop collapsing (issue 16): CSR row sums that ompcc -O2 computes over each warp's
 * nonzeros flattened (lanes evaluate consecutive nonzeros' terms, each lane adds its own row's
 * in order: the loop's result bit for bit). Empty rows, rows longer than a window (300, 700),
 * 301 rows, float and double sums, a value before the loop and statements after it, rows by
 * separate start and end arrays with gaps (those warps run the loop as written), a captured
 * scalar, teams of 100 and 7 threads. Where it must not fire: a term using the row's index, a
 * loop that also keeps the row's last column, bounds from an array the body writes, an
 * integer sum (a warp per row). With -DHEX the sums print in hexadecimal (bit for bit). */
#include <stdio.h>
#include <stdlib.h>

#define N 301
#ifndef HEX
#define HEX 0
#endif

static void show(const char *what, const double *v, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += v[i] * (double)(i % 7 + 1);
    printf(HEX ? "%s %a %a %a %a\n" : "%s %.6e %.6e %.6e %.6e\n", what, sum, v[40], v[77], v[n - 1]);
}

int main(void)
{
    int n = N;
    int *rowptr = calloc(n + 1, sizeof(int)), iy[N], bounds[N];
    for (int i = 0; i < n; i++)
        rowptr[i + 1] = rowptr[i] + (i % 29 == 3 ? 0 : i == 40 ? 300 : i == 77 ? 700 : (i * 7) % 23);
    int nnz = rowptr[n], *col = malloc(sizeof(int) * nnz);
    int *start = malloc(sizeof(int) * n), *stop = malloc(sizeof(int) * n);
    float *val = malloc(sizeof(float) * nnz), *x = malloc(sizeof(float) * n);
    double *dval = malloc(sizeof(double) * nnz), *dx = malloc(sizeof(double) * n);
    for (int k = 0; k < nnz; k++) {
        col[k] = (k * 11 + k / 7) % n;
        val[k] = 0.5f + 1.0f / (float)(2 + k % 13);
        dval[k] = 1.0 / (double)(3 + k % 17) - 0.1;
    }
    for (int i = 0; i < n; i++) { /* separate starts and ends: every third row skips one */
        x[i] = 0.1f * (float)((i * 5) % 9) - 0.37f;
        dx[i] = 1.0 + 1.0 / (double)(1 + i % 11);
        start[i] = rowptr[i] + (i % 3 == 0 && rowptr[i + 1] > rowptr[i] ? 1 : 0);
        stop[i] = rowptr[i + 1];
    }
    float y[N], y2[N], ny[N], wy[N], last[N], scale = 1.5f;
    double dy[N], gy[N], out[N];
#pragma omp target data map(to : rowptr[0:n + 1], col[0:nnz], val[0:nnz], dval[0:nnz], x[0:n], dx[0:n], start[0:n], stop[0:n])
    {
        /* fires: a float sum with a value before the loop and a captured scalar */
#pragma omp target teams distribute parallel for map(from : y[0:n])
        for (int i = 0; i < n; i++) {
            float t = 0.125f * (float)(i % 5);
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                t += scale * val[k] * x[col[k]];
            y[i] = t;
        }
        /* fires: a double sum, t = t + e, code after the loop, 6 warps (8 windows), 1 partial */
#pragma omp target teams distribute parallel for thread_limit(164) map(from : dy[0:n])
        for (int i = 0; i < n; i++) {
            double t = 0.0;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                t = t + dval[k] * dx[col[k]];
            t = i % 4 == 1 ? -t : t;
            dy[i] = t;
        }
        /* fires, but the rows are not consecutive: those warps run the loop as written */
#pragma omp target teams distribute parallel for thread_limit(7) map(from : gy[0:n])
        for (int i = 0; i < n; i++) {
            double t = 1.0;
            for (int k = start[i]; k < stop[i]; k++)
                t *= 1.0 + dval[k] * 0.01;
            gy[i] = t;
        }
        /* must not fire: the term uses the row's index */
#pragma omp target teams distribute parallel for map(from : ny[0:n])
        for (int i = 0; i < n; i++) {
            float t = 0.0f;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                t += val[k] * x[col[k]] * (float)(i % 3);
            ny[i] = t;
        }
        /* must not fire: the inner loop also keeps the row's last column (order-dependent) */
#pragma omp target teams distribute parallel for map(from : wy[0:n], last[0:n])
        for (int i = 0; i < n; i++) {
            float t = 0.0f, c = -1;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
                t += val[k];
                c = col[k];
            }
            wy[i] = t;
            last[i] = c;
        }
        /* must not fire: the loop writes the array its bounds read */
#pragma omp target teams distribute parallel for map(to : rowptr[0:n + 1]) map(from : bounds[0:n], y2[0:n])
        for (int i = 0; i < n; i++) {
            float t = 0.0f;
            bounds[i] = rowptr[i];
            for (int k = bounds[i]; k < rowptr[i + 1]; k++)
                t += val[k];
            y2[i] = t;
        }
        /* an integer sum: any order gives it (a warp per row, not collapsed) */
#pragma omp target teams distribute parallel for map(from : iy[0:n])
        for (int i = 0; i < n; i++) {
            int t = 0;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                t += col[k] * 3 - (int)(8.0f * val[k]);
            iy[i] = t;
        }
    }
    show("double", dy, n);
    show("gaps", gy, n);
    for (int i = 0; i < n; i++) {
        out[i] = 3.0 * ny[i] + 5.0 * (wy[i] + last[i]) + 7.0 * (y2[i] + bounds[i]) + iy[i];
        gy[i] = y[i];
    }
    show("others", out, n);
    show("float", gy, n);
    return 0;
}
