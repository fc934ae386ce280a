/* 64-bit division and remainder, signed and unsigned (PTX has them as instructions). */
// run: -fopenmp --device-only --emit=ptx -O2
long sdiv64(long a, long b) { return a / b; }
unsigned long udiv64(unsigned long a, unsigned long b) { return a / b; }
long srem64(long a, long b) { return a % b; }
unsigned long urem64(unsigned long a, unsigned long b) { return a % b; }
unsigned long divmod(unsigned long a, unsigned long b, unsigned long *r) {
    *r = a % b;
    return a / b;
}
// check: sdiv64(
// check: div.s64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
// check: udiv64(
// check: div.u64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
// check: srem64(
// check: rem.s64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
// check: urem64(
// check: rem.u64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
// check: divmod(
// check: ld.param.b64 $(a=%rd\d+), [divmod_param_0];
// nextln: ld.param.b64 $(b=%rd\d+), [divmod_param_1];
// nextln: ld.param.b64 $(p=%rd\d+), [divmod_param_2];
// The remainder is a - q * b from the one division (pass divrem).
// check: div.u64 $(q=%rd\d+), $a, $b;
// not: rem.u64
// check: mul.lo.s64 $(m=%rd\d+), $(=%rd\d+), $b;
// nextln: sub.s64 $(r=%rd\d+), $a, $m;
// nextln: st.u64 [$p], $r;
