/* `#pragma omp unroll` in device functions at -O2: `full` unrolls a 100-iteration loop
   (beyond what -O2 does by itself: without the directive the loop stays), `partial(3)` unrolls
   a loop of unknown trip count by 3 (three copies of the body with no exit test between them)
   keeping the original loop as the remainder, `partial(1)` forbids unrolling a loop -O2 would
   unroll fully, and a braced loop takes the directive too. */
// run: -fopenmp --device-only --emit=ptx -O2
void full(float *a) {
#pragma omp unroll full
    for (int i = 0; i < 100; i++)
        a[i] = a[i] * 2.0f;
}
void kept(float *a) {
    for (int i = 0; i < 100; i++)
        a[i] = a[i] * 2.0f;
}
void by3(float *a, int n) {
#pragma omp unroll partial(3)
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 2.0f;
}
void once(float *a) {
#pragma omp unroll partial(1)
    {
        for (int i = 0; i < 8; i++)
            a[i] = a[i] * 2.0f;
    }
}
// check: ld.param.b64 %rd1, [full_param_0];
// not: bra
// check: mul.rn.f32 %f201, %f200, %f1;
// not: bra
// check: ret;

// check: ld.param.b64 %rd1, [kept_param_0];
// check: mul.rn.f32
// check: bra
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
// check: bra
// check: ret;

// check: ld.param.b64 %rd1, [once_param_0];
// check: mul.rn.f32
// not: mul.rn.f32
// check: bra
// check: ret;
