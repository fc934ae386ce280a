/* 16-bit integer arithmetic and unsigned 16-bit remainders. */
// run: -fopenmp --device-only --emit=ptx -O2
short sub_i16(short a, short b) { return a - b; }
unsigned short rem_u16(unsigned short a, unsigned short b) { return a % b; }
short neg_i16(short a) { return -a; }
void scale16(short *p, short k) { *p = *p * k; }
// check: sub_i16(
// check: cvt.s32.s16 %r1, %rs1;
// check: sub.s32 %r3, %r1, %r2;
// nextln: cvt.u16.u32 %rs3, %r3;
// check: rem_u16(
// check: cvt.u32.u16 %r1, %rs1;
// check: rem.s32 %r3, %r1, %r2;
// check: neg_i16(
// check: neg.s32 %r2, %r1;
// check: scale16(
// check: ld.u16 %rs2, [%rd1];
// check: st.u16 [%rd1], %rs3;
