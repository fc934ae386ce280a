void f(int n, double *a) {
#pragma omp paralel for
    for (int i = 0; i < n; i++) a[i] = 0;
}
// ERROR 2:13: unknown OpenMP directive 'paralel' [E0120]
