void f(int n, double *a, int *idx) {
#pragma omp target map(to: a[idx[0:2]])
    a[0] = 0;
#pragma omp target map(tofrom: (a + 1)[0:n])
    a[0] = 1;
#pragma omp parallel num_threads(a[0:2])
    { }
}
// ERROR 2:30: array section is not allowed here [E0125]
// ERROR 4:33: malformed array section: the base must be a variable, member or element [E0125]
// ERROR 6:34: array section is not allowed here [E0125]
