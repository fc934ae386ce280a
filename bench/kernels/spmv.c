// spmv: y = A x for a sparse N x N matrix in CSR form (one row per thread; rows have 3 to 11
// nonzeros in a band, so the inner trip count varies).
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#ifdef LARGE
#define N (1 << 22)
#else
#define N 20000
#endif
#endif

int main(void) {
    int n = N;
    int *rowptr = malloc(sizeof(int) * (n + 1));
    int nnz = 0;
    for (int i = 0; i < n; i++)
        nnz += 3 + (i % 9);
    int *col = malloc(sizeof(int) * nnz);
    float *val = malloc(sizeof(float) * nnz);
    float *x = malloc(sizeof(float) * n);
    float *y = malloc(sizeof(float) * n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        rowptr[i] = k;
        int len = 3 + (i % 9);
        int start = i - len / 2;
        for (int e = 0; e < len; e++) {
            int c = start + e;
            col[k] = c < 0 ? c + n : (c >= n ? c - n : c);
            val[k] = (float)((i + 2 * e) % 17) / 17.0f - 0.5f;
            k++;
        }
        x[i] = (float)(i % 29) / 29.0f;
    }
    rowptr[n] = k;
#pragma omp target teams distribute parallel for map(to : rowptr[0:n + 1], col[0:nnz], val[0:nnz], \
                                                         x[0:n]) map(from : y[0:n])
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int e = rowptr[i]; e < rowptr[i + 1]; e++)
            acc += val[e] * x[col[e]];
        y[i] = acc;
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += y[i] * (double)(i % 7 + 1);
    printf("spmv n=%d nnz=%d checksum %.9e\n", n, nnz, sum);
    free(rowptr);
    free(col);
    free(val);
    free(x);
    free(y);
    return 0;
}
