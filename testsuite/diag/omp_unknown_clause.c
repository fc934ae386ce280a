void f(int n, double *a) {
#pragma omp parallel for privat(n)
    for (int i = 0; i < n; i++) a[i] = 0;
}
// ERROR 2:26: unknown OpenMP clause 'privat' [E0121]
