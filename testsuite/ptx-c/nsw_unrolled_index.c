/* `int` index arithmetic is `nsw` (signed overflow is undefined in C), so in a loop unrolled
   by 4 `a[k]`, `a[k + 1]`, ... `a[k + 4]` are one sign extension and one address register
   with immediate offsets, instead of a sign extension and a multiply per access. */
// run: -fopenmp --device-only --emit=ptx -O2
void sum4(float *restrict out, const float *restrict a, int n) {
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < n; k++)
        s += a[k] * a[k + 1];
    out[0] = s;
}
// The remainder loop comes first (`a[k]`, `a[k + 1]` at one base already).
// check: mul.wide.s32
// check: ld.f32 %f$(=\d+), [%rd$(=\d+)+4];
// The unrolled body: one scaled index (a 32x32->64 multiply), one base address; `a[k]` is
// the previous iteration's `a[k + 4]`, kept in a register (the `cache` pass).
// check: mul.wide.s32 %rd$(=\d+), %r$(k=\d+), 4;
// nextln: add.s64 %rd$(base=\d+), %rd$(=\d+), %rd$(=\d+);
// nextln: ld.f32 %f$(=\d+), [%rd$base+4];
// check: ld.f32 %f$(=\d+), [%rd$base+8];
// not: cvt.s64.s32
// check: ld.f32 %f$(=\d+), [%rd$base+12];
// not: cvt.s64.s32
// check: ld.f32 %f$(=\d+), [%rd$base+16];
// check: bra
