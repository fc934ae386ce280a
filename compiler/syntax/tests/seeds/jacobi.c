#include <math.h>
#define N 64
static double A[N][N], Anew[N][N];

void jacobi(int iters, double tol) {
    double err = tol + 1.0;
    int it = 0;
#pragma omp target data map(tofrom: A) map(alloc: Anew)
    while (err > tol && it++ < iters) {
        err = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max: err) schedule(static, 1)
        for (int j = 1; j < N - 1; j++)
            for (int i = 1; i < N - 1; i++) {
                Anew[j][i] = 0.25 * (A[j][i + 1] + A[j][i - 1] + A[j - 1][i] + A[j + 1][i]);
                err = fmax(err, fabs(Anew[j][i] - A[j][i]));
            }
#pragma omp target teams distribute parallel for collapse(2)
        for (int j = 1; j < N - 1; j++)
            for (int i = 1; i < N - 1; i++)
                A[j][i] = Anew[j][i];
        if (it % 10 == 0) continue; else if (err < 0) break;
    }
}

union U { int i; float f; struct { unsigned lo : 16, hi : 16; } parts; };
enum color { RED, GREEN = 5, BLUE };
int classify(union U u, enum color c) {
    switch (c) {
    case RED: return u.i;
    case GREEN ... BLUE: return (int)u.f;
    default: break;
    }
    do { u.i >>= 1; } while (u.parts.hi);
    return ({ int t = u.i; t ? t : -1; });
}
