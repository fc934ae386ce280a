/* Integer and float min/max written as conditionals. */
// run: -fopenmp --device-only --emit=ptx -O2
int imin(int a, int b) { return a < b ? a : b; }
unsigned long umax(unsigned long a, unsigned long b) { return a > b ? a : b; }
float fclamp(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
// check: imin(
// check: setp.lt.s32 $(=%p\d+), $(=%r\d+), $(=%r\d+);
// check: umax(
// check: setp.hi.u64 $(=%p\d+), $(=%rd\d+), $(=%rd\d+);
// check: fclamp(
// check: setp.lt.f32 $(=%p\d+), $(=%f\d+), $(=%f\d+);
// check: setp.gt.f32 $(=%p\d+), $(=%f\d+), $(=%f\d+);
