// spmv, hand-coalesced: LANES threads per CSR row (lane l takes nonzeros l, l+LANES, ... of
// the row: consecutive threads read consecutive nonzeros), the partial sums added by a
// second kernel.
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 4096
#endif
#define LANES 32

int main(void) {
    int n = N;
    int *rowptr = malloc(sizeof(int) * (n + 1));
    rowptr[0] = 0;
    for (int i = 0; i < n; i++)
        rowptr[i + 1] = rowptr[i] + 8 + (i * 7) % 33;
    int nnz = rowptr[n];
    int *col = malloc(sizeof(int) * nnz);
    float *val = malloc(sizeof(float) * nnz);
    float *x = malloc(sizeof(float) * n);
    float *y = malloc(sizeof(float) * n);
    float *part = malloc(sizeof(float) * n * LANES);
    for (int i = 0; i < n; i++) {
        x[i] = 1.0f + (float)(i % 17) / 17.0f;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            col[k] = (i * 13 + (k - rowptr[i]) * 17) % n;
            val[k] = (float)((i + k) % 11) / 11.0f;
        }
    }
#pragma omp target data map(to : rowptr[0:n + 1], col[0:nnz], val[0:nnz], x[0:n]) map(from : y[0:n]) map(alloc : part[0:n * LANES])
    {
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i < n; i++)
            for (int l = 0; l < LANES; l++) {
                float t = 0.0f;
                for (int k = rowptr[i] + l; k < rowptr[i + 1]; k += LANES)
                    t += val[k] * x[col[k]];
                part[i * LANES + l] = t;
            }
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) {
            float t = 0.0f;
            for (int l = 0; l < LANES; l++)
                t += part[i * LANES + l];
            y[i] = t;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 9 + 1);
    printf("spmv n=%d nnz=%d checksum %.9e\n", n, nnz, sum);
    free(rowptr);
    free(col);
    free(val);
    free(x);
    free(y);
    free(part);
    return 0;
}
