/* PolyBench-style matrix-vector kernels on 64x80: atax (y = A^T (A x)), bicg (s = A^T r,
 * q = A p) and mvt (x1 += A y1, x2 += A^T y2), each a row or a column loop per thread. */
#include <stdio.h>

#define M 64
#define N 80

static double A[M][N], x[N], y[N], tmp[M], r[M], p[N], s[N], q[M];
static double x1[M], x2[N], y1[N], y2[M];

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i + j) % N) / (5 * M);
    for (int j = 0; j < N; j++) {
        x[j] = 1 + j / (double)N;
        p[j] = (double)(j % N) / N;
        y1[j] = (double)(j % 7) / 7;
    }
    for (int i = 0; i < M; i++) {
        r[i] = (double)(i % M) / M;
        y2[i] = (double)(i % 5) / 5;
    }
#pragma omp target data map(to : A, x, r, p, y1, y2) map(from : y, s, q, x1, x2) map(alloc : tmp)
    {
#pragma omp target teams distribute parallel for /* atax: tmp = A x */
        for (int i = 0; i < M; i++) {
            double t = 0;
            for (int j = 0; j < N; j++)
                t += A[i][j] * x[j];
            tmp[i] = t;
        }
#pragma omp target teams distribute parallel for /* atax: y = A^T tmp */
        for (int j = 0; j < N; j++) {
            double t = 0;
            for (int i = 0; i < M; i++)
                t += A[i][j] * tmp[i];
            y[j] = t;
        }
#pragma omp target teams distribute parallel for /* bicg: s = A^T r */
        for (int j = 0; j < N; j++) {
            double t = 0;
            for (int i = 0; i < M; i++)
                t += r[i] * A[i][j];
            s[j] = t;
        }
#pragma omp target teams distribute parallel for /* bicg: q = A p; mvt: x1 = A y1 */
        for (int i = 0; i < M; i++) {
            double t = 0, u = 0;
            for (int j = 0; j < N; j++) {
                t += A[i][j] * p[j];
                u += A[i][j] * y1[j];
            }
            q[i] = t;
            x1[i] = u;
        }
#pragma omp target teams distribute parallel for /* mvt: x2 = A^T y2 */
        for (int j = 0; j < N; j++) {
            double t = 0;
            for (int i = 0; i < M; i++)
                t += A[i][j] * y2[i];
            x2[j] = t;
        }
    }
    double sy = 0, ss = 0, sq = 0, s1 = 0, s2 = 0;
    for (int j = 0; j < N; j++) {
        sy += y[j];
        ss += s[j];
        s2 += x2[j];
    }
    for (int i = 0; i < M; i++) {
        sq += q[i];
        s1 += x1[i];
    }
    printf("atax=%.10g bicg s=%.10g q=%.10g mvt x1=%.10g x2=%.10g\n", sy, ss, sq, s1, s2);
    printf("y[3]=%.10g s[79]=%.10g q[10]=%.10g\n", y[3], s[N - 1], q[10]);
    return 0;
}
