/* Integer conversions: sign and zero extension, truncation, between every width. */
// run: -fopenmp --device-only --emit=ptx -O2
long sext_i32(int a) { return a; }
unsigned long zext_u32(unsigned a) { return a; }
int trunc_i64(long a) { return (int)a; }
int sext_i8(signed char c) { return c; }
unsigned zext_u16(unsigned short s) { return s; }
short trunc_to_i16(int a) { return (short)a; }
unsigned char trunc_to_u8(long a) { return (unsigned char)a; }
// check: sext_i32(
// check: cvt.s64.s32 %rd1, %r1;
// check: zext_u32(
// check: cvt.u64.u32 %rd1, %r1;
// check: trunc_i64(
// check: cvt.u32.u64 %r1, %rd1;
// check: sext_i8(
// check: cvt.s32.s8 %r1, %rs1;
// check: zext_u16(
// check: cvt.u32.u16 %r1, %rs1;
// check: trunc_to_i16(
// check: cvt.u16.u32 %rs1, %r1;
// check: trunc_to_u8(
// check: cvt.u16.u64 %rs1, %rd1;
