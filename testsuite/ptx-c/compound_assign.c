/* Compound assignment and increments through pointers, with conversions. */
// run: -fopenmp --device-only --emit=ptx -O2
void ops(int *a, unsigned char *b, double *d, long *l) {
    *a += 5;
    *a <<= 2;
    *b *= 3;
    *d /= 2;
    *l %= 7;
    (*a)++;
    --(*l);
}
// check: ops(
// check: add.s32 %r3, %r1, %r2;
// check: shl.b32 %r6, %r4, 2;
// check: mul.lo.s32 %r9, %r7, %r8;
// nextln: cvt.u16.u32 %rs2, %r9;
// nextln: st.u8 [%rd2], %rs2;
// check: div.rn.f64 %fd3, %fd1, %fd2;
// check: rem.s64 %rd7, %rd5, %rd6;
// check: add.s32 %r12, %r10, %r11;
// check: sub.s64 %rd10, %rd8, %rd9;
