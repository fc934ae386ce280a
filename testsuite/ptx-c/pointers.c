/* Pointer arithmetic: scaled offsets, differences, comparisons, casts to integers. */
// run: -fopenmp --device-only --emit=ptx -O2
long ptr_diff(const double *a, const double *b) { return b - a; }
int *advance(int *p, long k) { return p + k; }
int in_range(const char *p, const char *lo, const char *hi) { return p >= lo && p < hi; }
unsigned long addr_bits(void *p) { return (unsigned long)p & 15; }
// check: ptr_diff(
// check: sub.s64 %rd5, %rd3, %rd4;
// nextln: mov.u64 %rd6, 8;
// nextln: div.s64 %rd7, %rd5, %rd6;
// check: advance(
// check: mul.lo.s64 %rd4, %rd2, %rd3;
// nextln: add.s64 %rd5, %rd1, %rd4;
// check: in_range(
// check: setp.hs.u64 %p1, %rd1, %rd2;
// check: setp.lo.u64 %p2, %rd1, %rd3;
// check: addr_bits(
