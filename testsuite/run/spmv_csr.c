/* CSR sparse matrix-vector product: a banded matrix built on the host, row-parallel kernel with
 * an inner loop over each row's nonzeros (irregular trip counts), repeated as a power step. */
#include <stdio.h>
#include <stdlib.h>

#define N 2000

int main(void)
{
    int *rowptr = malloc((N + 1) * sizeof *rowptr);
    int *cols = malloc(N * 5 * sizeof *cols);
    double *vals = malloc(N * 5 * sizeof *vals);
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    int nnz = 0;
    for (int i = 0; i < N; i++) {
        rowptr[i] = nnz;
        for (int d = -2; d <= 2; d++) {
            int j = i + d * (1 + i % 3);
            if (j < 0 || j >= N)
                continue;
            cols[nnz] = j;
            vals[nnz] = d == 0 ? 4.0 : -1.0 / (1 + (i + j) % 4);
            nnz++;
        }
        x[i] = 1.0 + (i % 10) * 0.1;
    }
    rowptr[N] = nnz;
    for (int step = 0; step < 3; step++) {
#pragma omp target teams distribute parallel for map(to : rowptr[0:N + 1], cols[0:nnz], \
                                                         vals[0:nnz], x[0:N]) map(from : y[0:N])
        for (int i = 0; i < N; i++) {
            double s = 0.0;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                s += vals[k] * x[cols[k]];
            y[i] = s;
        }
        double norm = 0.0;
        for (int i = 0; i < N; i++)
            norm += y[i] * y[i];
        printf("step %d nnz=%d y[0]=%.10g y[777]=%.10g norm2=%.10g\n", step, nnz, y[0], y[777],
               norm);
        for (int i = 0; i < N; i++)
            x[i] = y[i] / 4.0;
    }
    free(rowptr);
    free(cols);
    free(vals);
    free(x);
    free(y);
    return 0;
}
