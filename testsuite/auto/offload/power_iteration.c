/* Power iteration for the dominant eigenvalue of a symmetric tridiagonal-plus-corner matrix,
 * written as one `parallel` region per iteration: a work-sharing matvec loop, a work-sharing
 * norm reduction, a `single` block computing the scale (every thread sees it after the implied
 * barrier), and a work-sharing scaling loop; the shape of OpenMPC's region splitting at
 * barriers. Vectors are malloc'ed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 2000
#define ITERS 30

int main(void)
{
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++)
        x[i] = 1.0 + (i % 3) * 0.25;
    double lambda = 0.0, norm = 0.0, scale = 0.0;
    for (int it = 0; it < ITERS; it++) {
        norm = 0.0;
#pragma omp parallel
        {
#pragma omp for
            for (int i = 0; i < N; i++) {
                double left = x[i > 0 ? i - 1 : N - 1], right = x[i < N - 1 ? i + 1 : 0];
                y[i] = (2.0 + (i % 5) * 0.01) * x[i] - 0.9 * (left + right);
            }
#pragma omp for reduction(+ : norm)
            for (int i = 0; i < N; i++)
                norm += y[i] * y[i];
#pragma omp single
            scale = 1.0 / sqrt(norm);
#pragma omp for
            for (int i = 0; i < N; i++)
                x[i] = y[i] * scale;
        }
        lambda = sqrt(norm);
        if (it % 10 == 9)
            printf("iteration %d: |Ax|=%.4e\n", it + 1, lambda);
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += fabs(x[i]);
    printf("lambda=%.4e sum|x|=%.4e\n", lambda, sum);
    free(x);
    free(y);
    return 0;
}
