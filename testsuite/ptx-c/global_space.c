/* Kernel pointer parameters point to global memory: saxpy's loads and stores are ld.global /
   st.global behind one cvta.to.global per parameter, and the loop counter, below 2^31 in the
   body, indexes without a trunc/sext round trip. A declare-target table that the kernel only
   reads (the kernel writes another global) is loaded through the read-only cache. */
// run: -fopenmp --emit=ptx -O2
#define N 256
static float table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static float out[N];
#pragma omp declare target to(table, out)

void saxpy(int n, float a, float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

void lookup(void) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
        out[i] = table[i & 15] * 2.0f;
}

int main(void) { return 0; }
// check: .entry __omp_offload_saxpy_l12(
// check: cvta.to.global.u64 $(x=%rd\d+), %rd1;
// nextln: cvta.to.global.u64 $(y=%rd\d+), %rd2;
// check: $$L__BB2:
// not: cvt.s64.s32
// check: ld.global.f32 $(=%f\d+), [$(=%rd\d+)];
// check: ld.global.f32 $(=%f\d+), [$(=%rd\d+)];
// check: st.global.f32 [$(=%rd\d+)], $(=%f\d+);
// check: .entry __omp_offload_lookup_l18(
// check: ld.global.nc.f32
// check: st.global.f32
