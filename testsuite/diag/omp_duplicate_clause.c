void f(int n, double *a) {
#pragma omp target teams distribute parallel for collapse(1) num_teams(4) collapse(2)
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp parallel default(shared) default(none)
    { }
}
// ERROR 2:75: 'collapse' clause appears more than once on '#pragma omp target teams distribute parallel for' [E0123]
// ERROR 4:38: 'default' clause appears more than once on '#pragma omp parallel' [E0123]
