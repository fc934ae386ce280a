void f(int n, double *a) {
#pragma omp target parallel for if(teams: n > 100)
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp target if(bogus words: n)
    a[0] = 0;
}
// ERROR 2:36: 'if' modifier 'teams' does not name a construct of '#pragma omp target parallel for' [E0124]
// ERROR 4:20: malformed 'if' clause: expected a directive name before ':' [E0124]
