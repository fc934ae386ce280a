/* Integer compares feeding branches and selects (selp), signed and unsigned. */
// run: -fopenmp --device-only --emit=ptx -O2
int pick(int a, int b, int c) { return a < b ? c : a; }
unsigned umax3(unsigned a, unsigned b) { return a > b ? a : b; }
long clamp_l(long v, long lo, long hi) { return v < lo ? lo : (v > hi ? hi : v); }
int eq_count(int a, int b, int c) { return (a == b) + (b != c) + (a >= c); }
// check: pick(
// check: setp.lt.s32 %p1, %r1, %r2;
// check: umax3(
// check: setp.hi.u32 %p1, %r1, %r2;
// check: clamp_l(
// check: setp.lt.s64 %p1, %rd1, %rd2;
// check: setp.gt.s64 %p2, %rd1, %rd3;
// check: eq_count(
// check: setp.eq.b32 %p1, %r1, %r2;
// nextln: selp.u32 %r4, 1, 0, %p1;
// nextln: setp.ne.b32 %p2, %r2, %r3;
// check: setp.ge.s32 %p3, %r1, %r3;
// nextln: selp.u32 %r7, 1, 0, %p3;
