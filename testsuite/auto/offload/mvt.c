/* In the shape of PolyBench mvt: xa += A ya and xb += A^T yb in a helper with VLA parameters
 * (double a[n][n]); both loops are parallel over the result vector, the second with
 * schedule(static, 16). Repeated a few times with the results fed back, scaled by 1/256. */
#include <stdio.h>

#define N 160
#define REPS 3

static double A[N][N], xa[N], xb[N], ya[N], yb[N];

static void mvt(int n, double a[n][n], double x1v[n], double x2v[n], double y1v[n],
                double y2v[n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x1v[i] = x1v[i] + a[i][j] * y1v[j];
#pragma omp parallel for schedule(static, 16)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x2v[i] = x2v[i] + a[j][i] * y2v[j];
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        xa[i] = (i % N) / 16.0;
        xb[i] = ((i + 1) % N) / 16.0;
        ya[i] = ((i + 3) % N) / 16.0;
        yb[i] = ((i + 4) % N) / 16.0;
        for (int j = 0; j < N; j++)
            A[i][j] = (i * j % N) / 128.0;
    }
    for (int r = 0; r < REPS; r++) {
        mvt(N, A, xa, xb, ya, yb);
        double s1 = 0.0, s2 = 0.0;
        for (int i = 0; i < N; i++) {
            s1 += xa[i];
            s2 += xb[i];
            ya[i] = xb[i] / 256.0;
            yb[i] = xa[i] / 256.0;
        }
        printf("rep %d: sum(x1)=%.6f sum(x2)=%.6f x1[10]=%.6f x2[150]=%.6f\n", r, s1, s2, xa[10],
               xb[150]);
    }
    return 0;
}
