/* 64-bit division and remainder, signed and unsigned (PTX has them as instructions). */
// run: -fopenmp --device-only --emit=ptx -O2
long sdiv64(long a, long b) { return a / b; }
unsigned long udiv64(unsigned long a, unsigned long b) { return a / b; }
long srem64(long a, long b) { return a % b; }
unsigned long urem64(unsigned long a, unsigned long b) { return a % b; }
unsigned long divmod(unsigned long a, unsigned long b, unsigned long *r) {
    *r = a % b;
    return a / b;
}
// check: sdiv64(
// check: div.s64 %rd3, %rd1, %rd2;
// check: udiv64(
// check: div.u64 %rd3, %rd1, %rd2;
// check: srem64(
// check: rem.s64 %rd3, %rd1, %rd2;
// check: urem64(
// check: rem.u64 %rd3, %rd1, %rd2;
// check: divmod(
// check: rem.u64 %rd4, %rd1, %rd2;
// nextln: st.u64 [%rd3], %rd4;
// nextln: div.u64 %rd5, %rd1, %rd2;
