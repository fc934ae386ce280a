void f(int n, double *a) {
#pragma omp parallel for schedule(fast, 4)
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp distribute dist_schedule(dynamic)
    for (int i = 0; i < n; i++) a[i] = 0;
}
// ERROR 2:26: malformed 'schedule' clause: expected static, dynamic, guided, auto or runtime [E0124]
// ERROR 4:24: malformed 'dist_schedule' clause: the only kind is 'static' [E0124]
