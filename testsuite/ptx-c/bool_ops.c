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
// check: setp.ne.b32 %p1, %r1, %r3;
// check: selp.u16 %rs1, 1, 0, %p3;
// nextln: st.param.b16 [both_retval0], %rs1;
// check: either(
// check: lnot(
// check: xor.pred %p3, %p1, %p2;
// check: to_bool(
// check: setp.neu.f64 %p1, %fd1, %fd2;
// check: count_true(
// check: ld.u8 %rs1, [%rd3];
// nextln: cvt.u32.u8 %r6, %rs1;
