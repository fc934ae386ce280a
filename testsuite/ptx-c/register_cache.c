/* Register caching (the `cache` pass, -C register-cache, on at -O2): a thread's sweep of its
 * row reads a[c-1], a[c] and a[c+1], which `restrict` proves the kernel never writes. The
 * loop loads a[c+1] once per iteration and carries it two more iterations in registers; the
 * first a[c-1] and a[c] are loaded before the loop. The `run` recurrence keeps the row with
 * one thread; `nounroll` keeps one copy of the body to look at. */
// run: -fopenmp --emit=ptx -O2
void sweep(int n, int m, const float *restrict a, float *restrict b) {
#pragma omp target teams distribute parallel for map(to : a[0:n * m]) map(tofrom : b[0:n * m])
    for (int r = 0; r < n; r++) {
        float run = 0;
#pragma nounroll
        for (int c = 1; c < m - 1; c++) {
            run = run * 0.5f + a[r * m + c - 1] + a[r * m + c] + a[r * m + c + 1];
            b[r * m + c] = run;
        }
    }
}
// check: .entry __omp_offload_sweep_l8(
// check: ld.global.nc.f32 $(=%f\d+), [$(p=%rd\d+)];
// nextln: ld.global.nc.f32 $(=%f\d+), [$p+-4];
// check: $(loop=\$L__BB\d+):
// not: ld.global
// check: ld.global.nc.f32 $(=%f\d+), [$(=%rd\d+)+4];
// not: ld.global
// check: bra $loop;
// check: ret;
