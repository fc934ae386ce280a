/* `restrict` parameters are `noalias`: the store through `a` cannot change `b[0]`, so LICM
   loads it once before the loop; without `restrict` the load stays in the loop. Partial
   unrolling is off (`-C unroll-count=0`) to keep one copy of each loop. */
// run: -fopenmp --device-only --emit=ptx -O2 -C unroll-count=0
void with(float *restrict a, const float *restrict b, int n) {
    int i = 0;
    do {
        a[i] = b[0] * 2.0f;
        i++;
    } while (i < n);
}
void without(float *a, const float *b, int n) {
    int i = 0;
    do {
        a[i] = b[0] * 2.0f;
        i++;
    } while (i < n);
}
// check: ld.param.b64 %rd2, [with_param_1];
// check: ld.f32 %f1, [%rd2];
// check: $$L__BB1:
// not: ld.f32
// check: st.f32
// check: bra $$L__BB1;
// check: ld.param.b64 %rd2, [without_param_1];
// not: ld.f32
// check: $$L__BB1:
// check: ld.f32 %f2, [%rd2];
// check: st.f32
// check: bra $$L__BB1;
