/* Loop pragmas at -O2. `#pragma nounroll` keeps a loop that -O2 unrolls fully (the same loop
   without it has no branch left); `#pragma unroll 3` and `#pragma GCC unroll 8` unroll a
   loop of unknown trip count by 3 and 8 (a block with 3 / 8 copies of the body, no exit test
   between them) with the original loop kept as the remainder; `#pragma unroll` unrolls a
   100-iteration loop fully, beyond what -O2 would do by itself. */
// run: -fopenmp --device-only --emit=ptx -O2
void kept(float *a) {
#pragma nounroll
    for (int i = 0; i < 8; i++)
        a[i] = a[i] * 2.0f;
}
void unrolled(float *a) {
    for (int i = 0; i < 8; i++)
        a[i] = a[i] * 2.0f;
}
void by3(float *a, int n) {
#pragma unroll 3
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 2.0f;
}
void by8(float *a, int n) {
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 2.0f;
}
void full(float *a) {
#pragma unroll
    for (int i = 0; i < 100; i++)
        a[i] = a[i] * 2.0f;
}
// check: ld.param.b64 %rd1, [kept_param_0];
// check: $$L__BB1:
// check: mul.rn.f32
// not: mul.rn.f32
// check: bra $$L__BB1;
// check: ret;

// check: ld.param.b64 %rd1, [unrolled_param_0];
// not: bra
// check: mul.rn.f32
// check: mul.rn.f32
// check: mul.rn.f32
// check: mul.rn.f32
// check: mul.rn.f32
// check: mul.rn.f32
// check: mul.rn.f32
// check: mul.rn.f32
// not: bra
// check: ret;

// The remainder loop (one copy), then the unrolled one (three).
// check: ld.param.b64 %rd1, [by3_param_0];
// check: mul.rn.f32
// not: mul.rn.f32
// check: bra $$L__BB1;
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: mul.rn.f32
// check: bra $$L__BB5;
// check: ret;

// check: ld.param.b64 %rd1, [by8_param_0];
// check: mul.rn.f32
// not: mul.rn.f32
// check: bra $$L__BB1;
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: bra
// check: mul.rn.f32
// not: mul.rn.f32
// check: bra $$L__BB5;
// check: ret;

// check: ld.param.b64 %rd1, [full_param_0];
// not: bra
// check: mul.rn.f32 %f201, %f200, %f1;
// not: bra
// check: ret;
