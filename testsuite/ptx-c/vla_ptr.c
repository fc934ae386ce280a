/* Pointers to variable-length arrays: run-time strides (double (*a)[n]). */
// run: -fopenmp --device-only --emit=ptx -O2
void transpose(int n, int m, double (*a)[m], double (*t)[n]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            t[j][i] = a[i][j];
}
// check: transpose(
// check: mul.lo.s64 %rd6, %rd3, %rd5;
// check: mul.lo.s64 %rd9, %rd8, %rd6;
// check: ld.f64 %fd1, [%rd14];
// check: mul.lo.s64 %rd15, %rd12, %rd7;
// check: st.f64 [%rd17], %fd1;
