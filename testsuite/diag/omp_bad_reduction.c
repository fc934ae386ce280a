void f(int n, double *a) {
    double s = 0;
#pragma omp parallel for reduction(/: s)
    for (int i = 0; i < n; i++) s += a[i];
#pragma omp parallel for reduction(s)
    for (int i = 0; i < n; i++) s += a[i];
}
// ERROR 3:36: expected expression, found '/' [E0101]
// ERROR 5:26: malformed 'reduction' clause: expected '[modifier,] operator: list' [E0124]
