/* Shifts: logical and arithmetic right shifts by signedness, 32- and 64-bit, by variable
   and constant amounts. */
// run: -fopenmp --device-only --emit=ptx -O2
int ashr32(int a, int s) { return a >> s; }
unsigned lshr32(unsigned a, int s) { return a >> s; }
long shl64(long a, int s) { return a << s; }
unsigned long lshr64(unsigned long a) { return a >> 7; }
unsigned rotl(unsigned x, int r) { return (x << r) | (x >> (32 - r)); }
// check: ashr32(
// check: shr.s32 %r3, %r1, %r2;
// check: lshr32(
// check: shr.u32 %r3, %r1, %r2;
// check: shl64(
// check: shl.b64 %rd3, %rd1, %r2;
// check: lshr64(
// check: shr.u64 %rd3, %rd1, 7;
// check: rotl(
// check: shl.b32 %r3, %r1, %r2;
// check: shr.u32 %r6, %r1, %r5;
// nextln: or.b32 %r7, %r3, %r6;
