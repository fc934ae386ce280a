/* Sparse matrix-vector products: builds a CSR matrix from unsorted COO triplets (counting sort
 * by row, duplicates summed), multiplies in parallel, and checks against the dense product. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

typedef struct { int row, col; double val; } triplet;
typedef struct { int n, nnz; int *rowptr, *col; double *val; } csr;

static csr csr_from_coo(int n, const triplet *t, int nt)
{
    csr m = {n, 0, calloc((size_t)n + 1, sizeof(int)), malloc((size_t)nt * sizeof(int)),
             malloc((size_t)nt * sizeof(double))};
    for (int k = 0; k < nt; k++)
        m.rowptr[t[k].row + 1]++;
    for (int i = 0; i < n; i++)
        m.rowptr[i + 1] += m.rowptr[i];
    int *fill = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        fill[i] = m.rowptr[i];
    for (int k = 0; k < nt; k++) {
        int r = t[k].row, p = fill[r], q;
        /* merge with an existing entry of the same column */
        for (q = m.rowptr[r]; q < p && m.col[q] != t[k].col; q++)
            ;
        if (q < p) {
            m.val[q] += t[k].val;
        } else {
            m.col[p] = t[k].col;
            m.val[p] = t[k].val;
            fill[r]++;
        }
    }
    /* compact away the slots left by duplicates */
    int w = 0;
    for (int i = 0; i < n; i++) {
        int start = m.rowptr[i];
        m.rowptr[i] = w;
        for (int p = start; p < fill[i]; p++, w++) {
            m.col[w] = m.col[p];
            m.val[w] = m.val[p];
        }
    }
    m.rowptr[n] = m.nnz = w;
    free(fill);
    return m;
}

static void spmv(const csr *m, const double *x, double *y)
{
#pragma omp parallel for schedule(dynamic, 8)
    for (int i = 0; i < m->n; i++) {
        double s = 0.0;
        for (int p = m->rowptr[i]; p < m->rowptr[i + 1]; p++)
            s += m->val[p] * x[m->col[p]];
        y[i] = s;
    }
}

int main(void)
{
    enum { N = 200, NT = 1400 };
    triplet *t = malloc(NT * sizeof *t);
    double *dense = calloc(N * N, sizeof *dense);
    unsigned s = 7;
    for (int k = 0; k < NT; k++) {
        s = s * 1103515245u + 12345u;
        int r = (int)((s >> 8) % N);
        s = s * 1103515245u + 12345u;
        int c = k < N ? k : (int)((s >> 8) % N);
        if (k < N)
            r = k; /* the diagonal is always present */
        t[k] = (triplet){r, c, (double)(k % 13) - 6.0 + (r == c ? 20.0 : 0.0)};
        dense[r * N + c] += t[k].val;
    }
    csr m = csr_from_coo(N, t, NT);
    double x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = sin(0.1 * i);
    spmv(&m, x, y);
    double err = 0.0, norm = 0.0;
    for (int i = 0; i < N; i++) {
        double d = 0.0;
        for (int j = 0; j < N; j++)
            d += dense[i * N + j] * x[j];
        err = fmax(err, fabs(d - y[i]));
        norm += y[i] * y[i];
    }
    printf("n=%d nnz=%d (from %d triplets)\n", m.n, m.nnz, NT);
    printf("row 0 has %d entries, row %d has %d\n", m.rowptr[1] - m.rowptr[0], N - 1,
           m.rowptr[N] - m.rowptr[N - 1]);
    printf("|y|=%.6g y[0]=%.6g y[%d]=%.6g\n", sqrt(norm), y[0], N / 2, y[N / 2]);
    printf("matches dense: %s\n", err < 1e-9 ? "yes" : "no");
    free(m.rowptr); free(m.col); free(m.val); free(t); free(dense);
    return 0;
}
