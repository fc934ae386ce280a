/* '#pragma omp atomic' capture blocks, swap, and updates without a native instruction
 * (compare-and-swap loops computing in C's types). */
// run: -fopenmp --device-only --emit=ptx -O2
int fetch_add(int *p) {
    int v;
#pragma omp atomic capture
    {
        v = *p;
        *p += 2;
    }
    return v;
}
long add_fetch(long *p, long e) {
    long v;
#pragma omp atomic capture
    {
        *p = e + *p;
        v = *p;
    }
    return v;
}
double swap(double *p, double e) {
    double v;
#pragma omp atomic capture
    {
        v = *p;
        *p = e;
    }
    return v;
}
unsigned mul(unsigned *p, unsigned e) {
    unsigned v;
#pragma omp atomic capture
    v = *p *= e;
    return v;
}
void shl(long *p, int k) {
#pragma omp atomic
    *p <<= k;
}
void fsub_right(float *p, float e) {
#pragma omp atomic update
    *p = e - *p;
}
// check: fetch_add(
// check: atom.add.u32 %r2, [%rd1], %r1;
// nextln: st.param.b32 [fetch_add_retval0], %r2;
// check: add_fetch(
// check: atom.add.u64 %rd3, [%rd1], %rd2;
// nextln: add.s64 %rd4, %rd2, %rd3;
// check: swap(
// check: atom.exch.b64 %rd3, [%rd1], %rd2;
// check: mul(
// check: mul.lo.s32 %r3, %r2, %r1;
// nextln: atom.cas.b32 %r4, [%rd1], %r2, %r3;
// check: st.param.b32 [mul_retval0], %r3;
// check: shl(
// check: shl.b64 %rd4, %rd2,
// nextln: atom.cas.b64
// check: fsub_right(
// check: sub.rn.f32 %f3, %f1, %f2;
// check: atom.cas.b32
