/* 64-bit integer arithmetic. */
// run: -fopenmp --device-only --emit=ptx -O2
long long add_i64(long long a, long long b) { return a + b; }
long mul_i64(long a, long b) { return a * b; }
unsigned long long sub_u64(unsigned long long a, unsigned long long b) { return a - b; }
long neg_i64(long a) { return -a; }
// check: add_i64(
// check: add.s64 %rd3, %rd1, %rd2;
// check: mul_i64(
// check: mul.lo.s64 %rd3, %rd1, %rd2;
// check: sub_u64(
// check: sub.s64 %rd3, %rd1, %rd2;
// check: neg_i64(
// check: neg.s64 %rd2, %rd1;
