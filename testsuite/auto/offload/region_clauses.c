/* A `parallel` region whose own clauses (reduction, private, firstprivate) hold for the
 * work-sharing loops inside it, in the shape of a norm-then-scale step of an iterative
 * solver: each loop becomes a kernel that carries the region's clauses. */
#include <stdio.h>

#define N 4096

static double v[N], w[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        v[i] = (i % 13) * 0.25 - 1.0;
    double shift = 0.5;
    for (int it = 0; it < 4; it++) {
        double total = 0.0, tmp;
#pragma omp parallel reduction(+ : total) private(tmp) firstprivate(shift)
        {
#pragma omp for
            for (int i = 0; i < N; i++) {
                tmp = v[i] + shift;
                w[i] = tmp * tmp;
                total += w[i];
            }
#pragma omp for
            for (int i = 0; i < N; i++)
                v[i] = 0.5 * v[i] + 0.125 * (w[i] > 1.0);
        }
        printf("iteration %d: total %.4f v[7] %.4f\n", it, total, v[7]);
    }
    return 0;
}
