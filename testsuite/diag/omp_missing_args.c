void f(int n, double *a) {
#pragma omp parallel num_threads
    { }
#pragma omp for nowait(1)
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp target teams num_teams(1, 2)
    { }
}
void g(int n) {
#pragma omp parallel private(n: 2)
    { n++; }
}
// ERROR 2:22: 'num_threads' clause expects arguments in parentheses [E0124]
// ERROR 4:17: 'nowait' clause takes no arguments [E0124]
// ERROR 6:26: 'num_teams' clause expects one expression [E0124]
// ERROR 10:22: malformed 'private' clause: expected a list of variables [E0124]
