/* '#pragma omp atomic' in its forms: update, capture, read, write. */
// run: -fopenmp --device-only --emit=ptx -O2
void atomic_add(int *p, int v) {
#pragma omp atomic
    *p += v;
}
double atomic_add_f64(double *p, double v) {
    double now;
#pragma omp atomic capture
    now = *p += v;
    return now;
}
long atomic_read(long *p) {
    long v;
#pragma omp atomic read
    v = *p;
    return v;
}
void atomic_write(unsigned *p, unsigned v) {
#pragma omp atomic write
    *p = v;
}
void atomic_or(unsigned *p, unsigned m) {
#pragma omp atomic update
    *p |= m;
}
// check: atomic_add(
// check: atom.add.u32 %r2, [%rd1], %r1;
// check: atomic_add_f64(
// check: atom.add.f64 %fd2, [%rd1], %fd1;
// nextln: add.rn.f64 %fd3, %fd2, %fd1;
// check: atomic_read(
// check: ld.volatile.u64 %rd2, [%rd1];
// check: atomic_write(
// check: st.volatile.u32 [%rd1], %r1;
// check: atomic_or(
// check: atom.or.b32 %r2, [%rd1], %r1;
