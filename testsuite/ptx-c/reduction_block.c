/* A reduction at the end of an SPMD loop combines each block's values into the original
   with one atomic: when the block is a whole number of warps (a test on %ntid.x, the same
   for the whole block), a shuffle tree per warp under the constant full mask, the warps'
   values in .shared memory, a barrier and a second tree; otherwise one atomic per thread.
   No mask is computed at run time, so ptxas emits each tree once. */
// run: -fopenmp --emit=ptx -O2
double dot(int n, const double *x, const double *y) {
    double s = 0;
#pragma omp target teams distribute parallel for map(to : x[0:n], y[0:n]) reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
int main(void) { return 0; }
// check: .shared .align 8 .b8 __omp_offload_dot_l9__red[256];
// check: .entry __omp_offload_dot_l9(
// check: mov.u32 $(n=%r\d+), %ntid.x;
// check: and.b32 $(w=%r\d+), $n, $(=%r\d+);
// nextln: setp.eq.b32 $(p=%p\d+), $w, $(=%r\d+);
// nextln: @$p bra $(trees=.L__BB\d+);
// The other blocks: one atomic per thread.
// nextln: $(=.L__BB\d+):
// nextln: atom.global.add.f64
// nextln: bra $(done=.L__BB\d+);
// check: $trees:
// check: mov.u32 $(m=%r\d+), 4294967295;
// check: shfl.sync.down.b32 $(=%r\d+), $(=%r\d+), $(=%r\d+), 31, $m;
// check: st.shared.f64
// check: barrier.sync 0;
// Lanes past the block's warps hold -0.0, which a sum keeps bit for bit: the second tree
// tests no source lane.
// check: ld.shared.f64 $(w0=%fd\d+),
// nextln: mov.f64 $(nz=%fd\d+), 0d8000000000000000;
// nextln: selp.f64 $(=%fd\d+), $w0, $nz, $(=%p\d+);
// check: shfl.sync.down.b32 $(=%r\d+), $(=%r\d+), $(=%r\d+), 31, $m;
// not: selp
// check: atom.global.add.f64
// nextln: $done:
// not: atom
// not: shfl
// check: ret;
