/* One-iteration kernel variants (-C one-iteration, on at -O2): beside each grid-stride
   kernel, `<kernel>_one` runs iteration `ctaid.x * ntid.x + tid.x` of the nest when there is
   one, with no loop and no grid stride: a grid smaller than the iterations traps, and a
   one-loop kernel over `int` bounds compares in 32 bits. A collapse(2)/collapse(3) nest runs
   on a grid of as many dimensions: the inner index is the thread's x, the outer ones
   `ctaid.y`/`ctaid.z`, no division; the grid traps unless it covers every loop, and a thread
   runs an iteration when each index is below its trip count. */
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
void cube(int n, float *a) {
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : a[0:n * n * n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                a[(i * n + j) * n + k] += 1.0f;
}
int main(void) { return 0; }
// check: .visible .entry __omp_offload_sweep_l10(
// check: .visible .entry __omp_offload_sweep_l10_one(
// check: mov.u32 $(b=%r\d+), %ctaid.x;
// nextln: mov.u32 $(t=%r\d+), %ntid.x;
// nextln: mov.u32 $(x=%r\d+), %tid.x;
// nextln: mul.lo.s32 $(bt=%r\d+), $b, $t;
// nextln: add.s32 $(k=%r\d+), $bt, $x;
// check: setp.le.s32 $(fits=%p\d+), $(inner=%r\d+), $(=%r\d+);
// nextln: mov.u32 $(ny=%r\d+), %nctaid.y;
// nextln: setp.le.s32 $(rows=%p\d+), $(outer=%r\d+), $ny;
// nextln: and.pred $(c=%p\d+), $fits, $rows;
// nextln: mov.u32 $(y=%r\d+), %ctaid.y;
// nextln: @$c bra $(covered=\$L__BB\d+);
// nextln: $(=\$L__BB\d+):
// nextln: trap;
// nextln: $covered:
// nextln: setp.lt.s32 $(hx=%p\d+), $k, $inner;
// nextln: setp.lt.s32 $(hy=%p\d+), $y, $outer;
// nextln: and.pred $(h=%p\d+), $hx, $hy;
// nextln: @!$h bra $(done=\$L__BB\d+);
// The loops' variables (`int`, from 1 by 1) are `y + 1` and `k + 1` in 32 bits, widened
// once, at the address.
// nextln: $(=\$L__BB\d+):
// nextln: add.s32 $(=%r\d+), $y, $(one=%r\d+);
// nextln: add.s32 $(=%r\d+), $k, $one;
// No division, then the body; no other branch before the end.
// not: div.
// not: bra
// check: st.global.f32
// nextln: $done:
// nextln: ret;
// check: .visible .entry __omp_offload_scale_l16(
// check: .visible .entry __omp_offload_scale_l16_one(
// check: setp.le.s32 $(c=%p\d+), $(n=%r\d+), $(=%r\d+);
// check: trap;
// check: setp.lt.s32 $(h=%p\d+), $(k=%r\d+), $n;
// nextln: @!$h bra $(done=\$L__BB\d+);
// not: bra
// check: st.global.f32
// nextln: $done:
// nextln: ret;
// A schedule clause keeps the grid-stride kernel alone.
// check: .visible .entry __omp_offload_chunked_l21(
// not: _one(
// Three loops: z is the outermost, y the middle one, both compared with their trip counts.
// check: .visible .entry __omp_offload_cube_l26_one(
// check: mov.u32 $(=%r\d+), %nctaid.y;
// check: mov.u32 $(=%r\d+), %nctaid.z;
// check: trap;
// not: div.
// check: st.global.f32
