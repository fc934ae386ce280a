/* _Bool values, logical not, && and || as control flow. */
// run: -fopenmp --device-only --emit=ptx -O2
_Bool both(int a, int b) { return a && b; }
_Bool either(int a, int b) { return a || b; }
int lnot(int a) { return !a; }
_Bool to_bool(double d) { return d; }
int count_true(const _Bool *f, int n) {
    int c = 0;
    for (int i = 0; i < n; i++)
        c += f[i];
    return c;
}
// check: both(
// check: setp.ne.b32 $(=%p\d+), $(=%r\d+), $(=%r\d+);
// check: selp.u16 $(=%rs\d+), 1, 0, $(=%p\d+);
// nextln: st.param.b16 [both_retval0], $(=%rs\d+);
// check: either(
// check: lnot(
// check: xor.pred $(=%p\d+), $(=%p\d+), $(=%p\d+);
// check: to_bool(
// check: setp.neu.f64 $(=%p\d+), $(=%fd\d+), $(=%fd\d+);
// check: count_true(
// check: ld.u8 $(=%rs\d+), [$(=%rd\d+)];
// nextln: cvt.u32.u8 $(=%r\d+), $(=%rs\d+);
