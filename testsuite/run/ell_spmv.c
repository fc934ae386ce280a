/* ELLPACK sparse matrix-vector product (column-major padded storage for coalescing), iterated
 * as a damped Jacobi solve; the squared update norm comes back by reduction, the residual is
 * computed on the host every 5 iterations. */
#include <stdio.h>
#include <math.h>

#define N 2048
#define W 5

static int col[W][N];
static double val[W][N], b[N], x[N], xn[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        int offs[W] = {0, -1, 1, -64, 64};
        for (int k = 0; k < W; k++) {
            int j = i + offs[k];
            if (j < 0 || j >= N) {
                col[k][i] = i;
                val[k][i] = 0.0; /* padding */
            } else {
                col[k][i] = j;
                val[k][i] = k == 0 ? 4.0 : -1.0;
            }
        }
        b[i] = 1 + i % 3;
        x[i] = 0.0;
    }
#pragma omp target data map(to : col, val, b) map(tofrom : x) map(alloc : xn)
    for (int it = 1; it <= 20; it++) {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++) {
            double off = 0.0;
            for (int k = 1; k < W; k++)
                off += val[k][i] * x[col[k][i]];
            xn[i] = 0.8 * (b[i] - off) / val[0][i] + 0.2 * x[i];
        }
        double r2 = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : r2)
        for (int i = 0; i < N; i++) {
            double d = xn[i] - x[i];
            r2 += d * d;
            x[i] = xn[i];
        }
        if (it % 5 == 0) {
#pragma omp target update from(x)
            double res = 0.0;
            for (int i = 0; i < N; i++) {
                double ax = 0.0;
                for (int k = 0; k < W; k++)
                    ax += val[k][i] * x[col[k][i]];
                res += (ax - b[i]) * (ax - b[i]);
            }
            printf("iter %d residual=%.6e x[100]=%.6f update2=%.6e\n", it, sqrt(res), x[100], r2);
        }
    }
    return 0;
}
