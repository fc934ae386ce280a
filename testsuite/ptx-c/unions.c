/* Unions: type punning through memory. */
// local-memory: yes
// run: -fopenmp --device-only --emit=ptx -O2
union bits { float f; unsigned u; };
unsigned float_bits(float f) {
    union bits b;
    b.f = f;
    return b.u;
}
union any { long l; double d; char c[8]; };
char third_byte(union any *a) { return a->c[2]; }
// check: float_bits(
// check: st.local.f32 [__stack_0], %f1;
// nextln: ld.local.u32 %r1, [__stack_0];
// check: third_byte(
// check: ld.u8 %rs1, [%rd1+2];
