/* '#pragma omp atomic compare' (OpenMP 5.1): min/max and compare-and-swap forms, with
 * capture; native atom.min/max/cas where exact, a compare-and-swap loop for floats. */
// run: -fopenmp --device-only --emit=ptx -O2
void imax(int *p, int v) {
#pragma omp atomic compare
    if (*p < v) {
        *p = v;
    }
}
void umin(unsigned *p, unsigned v) {
#pragma omp atomic compare
    *p = v < *p ? v : *p;
}
int lclaim(long *p, long e, long d) {
    int r;
#pragma omp atomic compare capture
    {
        r = *p == e;
        if (r) {
            *p = d;
        }
    }
    return r;
}
float fmax_capture(float *p, float v) {
    float old;
#pragma omp atomic compare capture
    {
        old = *p;
        if (*p < v) {
            *p = v;
        }
    }
    return old;
}
double dcas_fail(double *p, double e, double d) {
    double seen = 0.0;
#pragma omp atomic compare capture seq_cst
    if (*p == e) {
        *p = d;
    } else {
        seen = *p;
    }
    return seen;
}
// check: imax(
// check: atom.max.s32 %r2, [%rd1], %r1;
// check: umin(
// check: atom.min.u32 %r2, [%rd1], %r1;
// check: lclaim(
// check: atom.cas.b64 %rd4, [%rd1], %rd2, %rd3;
// nextln: setp.eq.b64 %p1, %rd4, %rd2;
// nextln: selp.u32 %r1, 1, 0, %p1;
// check: fmax_capture(
// not: atom.max
// check: ld.volatile.u32 %r1, [%rd1];
// check: setp.lt.f32 %p1, %f2, %f1;
// nextln: selp.f32 %f3, %f1, %f2, %p1;
// nextln: @!%p1 bra
// check: atom.cas.b32 %r3, [%rd1], %r1, %r2;
// check: st.param.f32 [fmax_capture_retval0], %f2;
// check: dcas_fail(
// check: fence.sc.gpu;
// nextln: ld.volatile.u64
// check: setp.eq.f64 %p1, %fd4, %fd1;
// check: atom.cas.b64
// check: selp.f64 %fd6, %fd3, %fd4, %p1;
// nextln: fence.sc.gpu;
