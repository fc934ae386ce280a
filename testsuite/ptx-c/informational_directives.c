/* `nothing` and `assume` change nothing the device runs: accepted in device functions and
   target regions (they were E0803), the statement after `assume` lowered as written. */
// run: -fopenmp --device-only --emit=ptx -O2
int bump(int x) {
#pragma omp nothing
#pragma omp assume holds(x > 0)
    {
        x += 41;
    }
    return x;
}
// check: .visible .func (.param .b32 bump_retval0) bump(.param .b32 bump_param_0)
// check: {
// check: mov.u32 %r2, 41;
// nextln: add.s32 %r3, %r1, %r2;
// nextln: st.param.b32 [bump_retval0], %r3;
