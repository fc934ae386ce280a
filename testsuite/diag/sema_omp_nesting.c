void f(int n, double *a) {
#pragma omp target
    {
        a[0] = 1;
#pragma omp teams
        { }
    }
#pragma omp parallel
    {
#pragma omp teams
        { }
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp barrier
        a[i] = i;
    }
}
// ERROR 5:1: a 'target' construct that contains a 'teams' construct must not contain other statements or directives [E0616]
// ERROR 10:1: 'teams' construct must be closely nested in a 'target' construct or not nested at all (it is inside 'parallel') [E0611]
// ERROR 15:1: 'barrier' region may not be closely nested inside a 'parallel for' region [E0614]
