/* 32-bit integer arithmetic, signed and unsigned, including high multiply shapes. */
// run: -fopenmp --device-only --emit=ptx -O2
int arith_i32(int a, int b) { return a * b + a / b - b % a; }
unsigned arith_u32(unsigned a, unsigned b) { return a / b + b % a; }
/* The remainder of the same operands reuses the quotient (pass divrem). */
int divmod_i32(int a, int b) { return a / b + a % b; }
int mad_i32(int a, int b, int c) { return a * b + c; }
unsigned sub_u32(unsigned a, unsigned b) { return a - b; }
// check: arith_i32(
// check: mul.lo.s32 %r3, %r1, %r2;
// nextln: div.s32 %r4, %r1, %r2;
// nextln: add.s32 %r5, %r3, %r4;
// nextln: rem.s32 %r6, %r2, %r1;
// nextln: sub.s32 %r7, %r5, %r6;
// check: arith_u32(
// check: div.u32 %r3, %r1, %r2;
// nextln: rem.u32 %r4, %r2, %r1;
// check: divmod_i32(
// check: div.s32 %r3, %r1, %r2;
// nextln: mul.lo.s32 %r4, %r3, %r2;
// nextln: sub.s32 %r5, %r1, %r4;
// nextln: add.s32 %r6, %r3, %r5;
// check: sub_u32(
// check: sub.s32 %r3, %r1, %r2;
