void f(int n, double *a) {
#pragma omp parallel for private(a[0:n])
    for (int i = 0; i < n; i++) a[i] = 0;
}
// ERROR 2:34: array sections are not allowed in 'private' clause [E0125]
