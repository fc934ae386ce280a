/* Pointers to variable-length arrays: run-time strides (double (*a)[n]). */
// run: -fopenmp --device-only --emit=ptx -O2
void transpose(int n, int m, double (*a)[m], double (*t)[n]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            t[j][i] = a[i][j];
}
// check: transpose(
// check: mul.wide.s32 $(row=%rd\d+), %r2, 8;
// check: mul.lo.s64 $(=%rd\d+), $(=%rd\d+), $row;
// check: ld.f64 %fd1, [$(=%rd\d+)];
// check: mul.lo.s64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
// check: st.f64 [$(=%rd\d+)], %fd1;
// The unrolled loads of `a[i][j + 1]`... share one base (`int j`: `j + 1` does not wrap).
// check: ld.f64 %fd2, [$(b=%rd\d+)];
// check: ld.f64 %fd3, [$b+8];
// check: ld.f64 %fd4, [$b+16];
