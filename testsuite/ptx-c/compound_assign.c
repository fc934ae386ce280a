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
// check: add.s32 $(=%r\d+), $(=%r\d+), $(=%r\d+);
// check: shl.b32 $(=%r\d+), $(=%r\d+), 2;
// check: mul.lo.s32 $(=%r\d+), $(=%r\d+), $(=%r\d+);
// nextln: cvt.u16.u32 $(=%rs\d+), $(=%r\d+);
// nextln: st.u8 [$(=%rd\d+)], $(=%rs\d+);
// check: div.rn.f64 $(=%fd\d+), $(=%fd\d+), $(=%fd\d+);
// check: rem.s64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
// check: add.s32 $(=%r\d+), $(=%r\d+), $(=%r\d+);
// check: sub.s64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
