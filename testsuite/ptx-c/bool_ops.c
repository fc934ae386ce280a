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
// check: ld.param.b32 $(a=%r\d+), [both_param_0];
// check: setp.ne.b32 $(=%p\d+), $a, $(=%r\d+);
// check: selp.b32 $(=%r\d+), $(=%r\d+), $(=%r\d+), $(=%p\d+);
// check: setp.ne.b32 $(pb=%p\d+), $(=%r\d+), $(=%r\d+);
// nextln: selp.u16 $(b=%rs\d+), 1, 0, $pb;
// nextln: st.param.b16 [both_retval0], $b;
// check: either(
// check: ld.param.b32 $(ea=%r\d+), [either_param_0];
// check: setp.ne.b32 $(ep=%p\d+), $ea, $(=%r\d+);
// nextln: @$ep bra
// check: lnot(
// check: setp.ne.b32 $(np=%p\d+), $(=%r\d+), $(=%r\d+);
// nextln: mov.pred $(one=%p\d+), 1;
// nextln: xor.pred $(nx=%p\d+), $np, $one;
// nextln: selp.u32 $(nr=%r\d+), 1, 0, $nx;
// nextln: st.param.b32 [lnot_retval0], $nr;
// check: to_bool(
// check: ld.param.f64 $(d=%fd\d+), [to_bool_param_0];
// nextln: mov.f64 $(z=%fd\d+), 0d0000000000000000;
// nextln: setp.neu.f64 $(dp=%p\d+), $d, $z;
// nextln: selp.u16 $(db=%rs\d+), 1, 0, $dp;
// nextln: st.param.b16 [to_bool_retval0], $db;
// check: count_true(
// check: ld.u8 $(fb=%rs\d+), [$(=%rd\d+)];
// nextln: cvt.u32.u8 $(fw=%r\d+), $fb;
// nextln: add.s32 $(=%r\d+), $(=%r\d+), $fw;
