#include "vec.h"

void vec_fill(double *v, int n, double start) {
#pragma omp target teams distribute parallel for map(from : v[0 : n])
    for (int i = 0; i < n; i++)
        v[i] = start + i;
}

double vec_dot(const double *a, const double *b, int n) {
    double s = 0.0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}
