/* The generic GNU atomic builtins move any naturally aligned 1-8 byte object through
 * pointers to its value: a double exchanged and compare-exchanged as its 64 bits. */
// run: -fopenmp --device-only --emit=ptx -O2
double exchange_double(double *p, double v) {
    double old;
    __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
    return old;
}
_Bool cas_double(double *p, double *expected, double desired) {
    return __atomic_compare_exchange(p, expected, &desired, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
}
// check: exchange_double(
// not: fence
// check: atom.exch.b64
// check: cas_double(
// check: ld.u64 %rd$(=\d+), [%rd2];
// not: fence
// check: atom.cas.b64
// nextln: fence.sc.gpu;
