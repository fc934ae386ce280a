#define PAR _Pragma("omp parallel for nowait")
void f(int n, double *a) {
    PAR
    for (int i = 0; i < n; i++) a[i] = 0;
}
// ERROR 3:5: 'nowait' clause is not allowed on '#pragma omp parallel for' [E0122]
