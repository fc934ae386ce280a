/* 8-bit integer arithmetic: C promotes to int, truncation back to char on store. */
// run: -fopenmp --device-only --emit=ptx -O2
signed char add_i8(signed char a, signed char b) { return a + b; }
unsigned char mul_u8(unsigned char a, unsigned char b) { return a * b; }
signed char div_i8(signed char a, signed char b) { return a / b; }
void inc_bytes(unsigned char *p, int n) {
    for (int i = 0; i < n; i++)
        p[i] += 3;
}
// check: .visible .func (.param .b32 add_i8_retval0) add_i8(
// check: cvt.s32.s8 %r1, %rs1;
// nextln: cvt.s32.s8 %r2, %rs2;
// nextln: add.s32 %r3, %r1, %r2;
// nextln: cvt.u16.u32 %rs3, %r3;
// check: mul_u8(
// check: cvt.u32.u8 %r1, %rs1;
// check: mul.lo.s32 %r3, %r1, %r2;
// check: div_i8(
// check: div.s32 %r3, %r1, %r2;
// check: inc_bytes(
// check: ld.u8 %rs1, [$(a=%rd\d+)];
// check: st.u8 [$a], %rs2;
// The unrolled copies (`int i`, so `p[i + 1]` is `p[i] + 1`) share one address register.
// check: ld.u8 %rs3, [$(b=%rd\d+)];
// check: st.u8 [$b+3], %rs10;
