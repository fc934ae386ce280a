/* An int index sum without a constant (a[i + j]) is computed in int and widened once, as C
   says: one 32-bit add and one mul.wide.s32, not a widening per operand and a 64-bit add.
   A sum with a constant (a[i + j + 1]) still widens around the constant, which becomes an
   address offset. */
// run: -fopenmp --device-only --emit=ptx -O2
float pair(const float *a, int i, int j) { return a[i + j]; }
float next(const float *a, int i, int j) { return a[i + j] + a[i + j + 1]; }
// check: pair(
// check: add.s32 $(s=%r\d+), $(=%r\d+), $(=%r\d+);
// nextln: mul.wide.s32 $(o=%rd\d+), $s, 4;
// not: cvt.s64.s32
// check: ld.f32
// check: next(
// check: add.s32 $(t=%r\d+), $(=%r\d+), $(=%r\d+);
// nextln: mul.wide.s32 $(o2=%rd\d+), $t, 4;
// check: ld.f32 $(=%f\d+), [$(p=%rd\d+)];
// nextln: ld.f32 $(=%f\d+), [$p+4];
// check: ret;
