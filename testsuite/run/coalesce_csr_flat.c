/* Irregular loop collapsing (issue 16): CSR row sums that ompcc -O2 computes over each
 * warp's nonzeros flattened (consecutive lanes evaluate consecutive nonzeros' terms, each
 * lane adds its own row's terms in the loop's order: the same result bit for bit). Rows
 * empty, short and longer than a window (300 and 700 nonzeros), a row count that is not a
 * multiple of 32, a float and a double sum, a value before the loop and statements after
 * it, rows given by separate start and end arrays with gaps between them (not consecutive:
 * those warps run the loop as written), a term with a scalar captured from the host. And
 * rows where it must not fire: a term that uses the row's index, an inner loop that also
 * keeps the row's last column, a loop that writes its own bound array, and an integer
 * sum (any order gives it: a warp per row instead). With -DHEX the sums print in
 * hexadecimal (the driver test compares them bit for bit). */
#include <stdio.h>
#include <stdlib.h>

#define N 301

static void show(const char *what, const double *v, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += v[i] * (double)(i % 7 + 1);
#ifdef HEX
    printf("%s %a", what, sum);
    for (int i = 0; i < n; i += 37)
        printf(" %a", v[i]);
    printf("\n");
#else
    printf("%s %.6e %.6e %.6e\n", what, sum, v[0], v[n - 1]);
#endif
}

int main(void)
{
    int n = N;
    int *rowptr = malloc(sizeof(int) * (n + 1));
    rowptr[0] = 0;
    for (int i = 0; i < n; i++) {
        int len = (i * 7) % 23;
        if (i % 29 == 3)
            len = 0;
        if (i == 40)
            len = 300;
        if (i == 77)
            len = 700;
        rowptr[i + 1] = rowptr[i] + len;
    }
    int nnz = rowptr[n];
    int *col = malloc(sizeof(int) * nnz);
    float *val = malloc(sizeof(float) * nnz);
    double *dval = malloc(sizeof(double) * nnz);
    float *x = malloc(sizeof(float) * n);
    double *dx = malloc(sizeof(double) * n);
    for (int k = 0; k < nnz; k++) {
        col[k] = (k * 11 + k / 7) % n;
        val[k] = 0.5f + 1.0f / (float)(2 + k % 13);
        dval[k] = 1.0 / (double)(3 + k % 17) - 0.1;
    }
    for (int i = 0; i < n; i++) {
        x[i] = 0.1f * (float)((i * 5) % 9) - 0.37f;
        dx[i] = 1.0 + 1.0 / (double)(1 + i % 11);
    }
    /* separate starts and ends: every third row skips a gap before it */
    int *start = malloc(sizeof(int) * n), *stop = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) {
        start[i] = rowptr[i] + (i % 3 == 0 && rowptr[i + 1] > rowptr[i] ? 1 : 0);
        stop[i] = rowptr[i + 1];
    }
    float *y = malloc(sizeof(float) * n), *y2 = malloc(sizeof(float) * n);
    double *dy = malloc(sizeof(double) * n), *gy = malloc(sizeof(double) * n);
    float *ny = malloc(sizeof(float) * n), *wy = malloc(sizeof(float) * n);
    int *last = malloc(sizeof(int) * n), *iy = malloc(sizeof(int) * n);
    int *bounds = malloc(sizeof(int) * (n + 1));
    float scale = 1.5f;
    double out[N];
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
        /* fires: a double sum written t = t + e, statements after the loop */
#pragma omp target teams distribute parallel for map(from : dy[0:n])
        for (int i = 0; i < n; i++) {
            double t = 0.0;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                t = t + dval[k] * dx[col[k]];
            if (i % 4 == 1)
                t = -t;
            dy[i] = t;
        }
        /* fires, but the rows are not consecutive: those warps run the loop as written */
#pragma omp target teams distribute parallel for map(from : gy[0:n])
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
            float t = 0.0f;
            int c = -1;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
                t += val[k];
                c = col[k];
            }
            wy[i] = t;
            last[i] = c;
        }
        /* must not fire: the loop writes the array its bounds read */
#pragma omp target teams distribute parallel for map(to : rowptr[0:n + 1]) map(from : bounds[0:n + 1], y2[0:n])
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
                t += col[k] * 3 - k;
            iy[i] = t;
        }
    }
    for (int i = 0; i < n; i++)
        out[i] = y[i];
    show("float", out, n);
    show("double", dy, n);
    show("gaps", gy, n);
    for (int i = 0; i < n; i++)
        out[i] = ny[i];
    show("row-index", out, n);
    for (int i = 0; i < n; i++)
        out[i] = wy[i] + last[i];
    show("writes", out, n);
    for (int i = 0; i < n; i++)
        out[i] = y2[i] + bounds[i];
    show("bounds", out, n);
    for (int i = 0; i < n; i++)
        out[i] = iy[i];
    show("int", out, n);
    free(rowptr); free(col); free(val); free(dval); free(x); free(dx); free(start); free(stop);
    free(y); free(y2); free(dy); free(gy); free(ny); free(wy); free(last); free(iy); free(bounds);
    return 0;
}
