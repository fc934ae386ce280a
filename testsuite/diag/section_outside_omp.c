void f(int n, double *a) {
    double *p = a[0:n];
    a[1:] = 0;
#pragma omp target map(to: a[0:n])
    a[0] = a[1];
}
// ERROR 2:17: array sections are only allowed in OpenMP clauses [E0125]
// ERROR 3:5: array sections are only allowed in OpenMP clauses [E0125]
