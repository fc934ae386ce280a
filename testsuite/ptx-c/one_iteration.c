/* One-iteration kernel variants (-C one-iteration, on at -O2): beside each grid-stride
   kernel, `<kernel>_one` runs iteration `ctaid.x * ntid.x + tid.x` of the nest when there is
   one, with no loop and no grid stride: a grid smaller than the iterations traps, the
   collapsed indices come from one 32-bit division and its remainder, and a one-loop kernel
   over `int` bounds compares in 32 bits. */
// run: -fopenmp --emit=ptx -O2
void sweep(int n, int m, float *a) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : a[0:n * m])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            a[i * m + j] *= 2.0f;
}
void scale(int n, float *x) {
#pragma omp target teams distribute parallel for map(tofrom : x[0:n])
    for (int i = 0; i < n; i++)
        x[i] *= 3.0f;
}
void chunked(int n, float *x) {
#pragma omp target teams distribute parallel for schedule(static, 4) map(tofrom : x[0:n])
    for (int i = 0; i < n; i++)
        x[i] += 1.0f;
}
int main(void) { return 0; }
// check: .visible .entry __omp_offload_sweep_l8(
// check: .visible .entry __omp_offload_sweep_l8_one(
// check: mov.u32 $(b=%r\d+), %ctaid.x;
// nextln: mov.u32 $(t=%r\d+), %ntid.x;
// nextln: mov.u32 $(x=%r\d+), %tid.x;
// nextln: mov.u32 $(g=%r\d+), %nctaid.x;
// nextln: mul.lo.s32 $(bt=%r\d+), $b, $t;
// nextln: add.s32 $(k=%r\d+), $bt, $x;
// check: setp.le.s64 $(c=%p\d+), $(units=%rd\d+), $(=%rd\d+);
// nextln: @$c bra $(covered=\$L__BB\d+);
// nextln: $(=\$L__BB\d+):
// nextln: trap;
// nextln: $covered:
// nextln: setp.lt.s64 $(h=%p\d+), $(=%rd\d+), $units;
// nextln: @!$h bra $(done=\$L__BB\d+);
// One division and the remainder from it, then the body; no other branch before the end.
// check: div.u32 $(q=%r\d+), $k, $(d=%r\d+);
// not: bra
// not: div.u
// check: st.global.f32
// nextln: $done:
// nextln: ret;
// check: .visible .entry __omp_offload_scale_l14(
// check: .visible .entry __omp_offload_scale_l14_one(
// check: setp.le.s32 $(c=%p\d+), $(n=%r\d+), $(=%r\d+);
// check: trap;
// check: setp.lt.s32 $(h=%p\d+), $(k=%r\d+), $n;
// nextln: @!$h bra $(done=\$L__BB\d+);
// not: bra
// check: st.global.f32
// nextln: $done:
// nextln: ret;
// A schedule clause keeps the grid-stride kernel alone.
// check: .visible .entry __omp_offload_chunked_l19(
// not: _one(
