void f(int n, double *a) {
#pragma omp target map(tofro: a[0:n])
    a[0] = 1;
#pragma omp target map(to: a[0:n]
    a[0] = 2;
}
// ERROR 2:24: unknown map type or modifier 'tofro' [E0124]
// ERROR 4:34: expected ')', found end of pragma line [E0101]
