void f(int n, double *a) {
#pragma omp target map(to a[0:n])
    a[0] = 0;
    a[1] = 1;
}
// ERROR 2:28: expected ')', found '[' [E0101]
