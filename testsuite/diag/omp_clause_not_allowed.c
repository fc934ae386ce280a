void f(int n, double *a) {
#pragma omp parallel for nowait
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp target data map(to: a[0:n]) num_threads(4)
    { }
#pragma omp barrier private(n)
}
// ERROR 2:26: 'nowait' clause is not allowed on '#pragma omp parallel for' [E0122]
// ERROR 4:41: 'num_threads' clause is not allowed on '#pragma omp target data' [E0122]
// ERROR 6:21: 'private' clause is not allowed on '#pragma omp barrier' [E0122]
