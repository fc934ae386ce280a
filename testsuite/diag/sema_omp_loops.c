void f(int n, double *a) {
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; i++)
        a[i] = 0;
#pragma omp parallel for
    for (int i = 0; i * 2 < n; i++)
        a[i] = 0;
#pragma omp parallel for
    for (int i = 0; i < n; i *= 2)
        a[i] = 0;
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        a[i] = 0;
        i++;
    }
#pragma omp parallel for default(none) shared(a)
    for (int i = 0; i < n; i++)
        a[i] = 0;
}
// ERROR 4:9: not enough perfectly nested loops for 'collapse(2)': only 1 found [E0620]
// ERROR 6:21: invalid controlling predicate in OpenMP loop: expected 'i relop bound' [E0623]
// ERROR 9:28: invalid increment expression in OpenMP loop: expected 'i++', 'i += step' or similar [E0624]
// ERROR 14:9: iteration variable 'i' of an OpenMP loop is modified in the loop body [E0625]
// ERROR 17:25: 'n' not specified in enclosing 'parallel for' construct with 'default(none)' [E0630]
