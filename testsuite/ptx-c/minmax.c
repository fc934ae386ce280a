/* Integer and float min/max written as conditionals. */
// run: -fopenmp --device-only --emit=ptx -O2
int imin(int a, int b) { return a < b ? a : b; }
unsigned long umax(unsigned long a, unsigned long b) { return a > b ? a : b; }
float fclamp(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
// check: imin(
// check: setp.lt.s32 %p1, %r1, %r2;
// check: umax(
// check: setp.hi.u64 %p1, %rd1, %rd2;
// check: fclamp(
// check: setp.lt.f32 %p1, %f1, %f2;
// check: setp.gt.f32 %p2, %f1, %f4;
