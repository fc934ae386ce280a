/* In the shape of OpenMPC's spmul: repeated sparse matrix-vector products y = A x with A in CSR
 * form on malloc'ed arrays (irregular row lengths, indirect loads of x), the result scaled back
 * into x in a second parallel loop each iteration. Entries are small dyadic numbers, so all sums
 * are exact and the norm reduction is order independent. */
#include <stdio.h>
#include <stdlib.h>

#define N 3000
#define ITERS 8

int main(void)
{
    int *rowp = malloc((N + 1) * sizeof *rowp);
    rowp[0] = 0;
    for (int i = 0; i < N; i++)
        rowp[i + 1] = rowp[i] + 1 + (i * 7) % 9; /* 1..9 entries per row */
    int nnz = rowp[N];
    int *col = malloc(nnz * sizeof *col);
    double *val = malloc(nnz * sizeof *val);
    for (int i = 0; i < N; i++)
        for (int k = rowp[i]; k < rowp[i + 1]; k++) {
            int off = k - rowp[i];
            col[k] = (i + off * off * 131 + off * 17) % N;
            val[k] = ((i + 3 * off) % 7 - 3) / 4.0;
        }
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++)
        x[i] = (i % 10) - 4.5;
    for (int it = 0; it < ITERS; it++) {
#pragma omp parallel for schedule(dynamic, 32)
        for (int i = 0; i < N; i++) {
            double s = 0.0;
            for (int k = rowp[i]; k < rowp[i + 1]; k++)
                s += val[k] * x[col[k]];
            y[i] = s;
        }
        double norm1 = 0.0;
#pragma omp parallel for reduction(+ : norm1)
        for (int i = 0; i < N; i++) {
            x[i] = y[i] * 0.5;
            norm1 += y[i] < 0 ? -y[i] : y[i];
        }
        printf("iteration %d: |y|_1=%.6f y[0]=%.6f y[2999]=%.6f\n", it, norm1, y[0], y[N - 1]);
    }
    free(rowp);
    free(col);
    free(val);
    free(x);
    free(y);
    return 0;
}
