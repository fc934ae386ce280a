/* The sweep of register_cache.c with `-C register-cache=off`: three loads of a per
 * iteration. */
// run: -fopenmp --emit=ptx -O2 -C register-cache=off
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
// check: .entry __omp_offload_sweep_l5(
// check: ld.global.nc.f32 $(=%f\d+), [$(p=%rd\d+)+-4];
// check: ld.global.nc.f32 $(=%f\d+), [$p];
// check: ld.global.nc.f32 $(=%f\d+), [$p+4];
// check: @%p$(=\d+) bra $(=\$L__BB\d+);
