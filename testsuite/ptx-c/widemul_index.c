/* The grid-stride counter of a distributed loop over int bounds runs in 32 bits (its values
   are proven below 2^32: trip count < 2^31, grid stride < 2^31) and forms addresses with
   mul.wide.s32, as nvcc does for saxpy: no 64-bit counter, compare or multiply. A loop over
   a long bound keeps its 64-bit counter and says why. */
// run: -fopenmp --emit=ptx -O2
void saxpy(int n, float a, const float *x, float *y) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
void scale(long n, float *y) {
#pragma omp target teams distribute parallel for map(tofrom : y[0:n])
    for (long i = 0; i < n; i++)
        y[i] *= 2.0f;
}
int main(void) { return 0; }
// check: .visible .entry __omp_offload_saxpy_l7(
// check: max.s32 $(n=%r\d+), $(=%r\d+), $(=%r\d+);
// The loop is a guarded do-while (`rotate`): the test in 32 bits at the guard and the latch.
// check: setp.lo.u32 $(=%p\d+), $(=%r\d+), $n;
// check: mov.b32 $(i=%r\d+), $(=%r\d+);
// nextln: $(L=\$L__BB\d+):
// nextln: mul.wide.s32 $(o=%rd\d+), $i, 4;
// check: add.s32 $i, $i, $(s=%r\d+);
// nextln: setp.lo.u32 $(p=%p\d+), $i, $n;
// nextln: @$p bra $L;
// check: .visible .entry __omp_offload_scale_l12(
// check: setp.lt.s64
// check: ret;
