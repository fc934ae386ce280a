/* Float conversions: int <-> float of both widths, float <-> double. */
// run: -fopenmp --device-only --emit=ptx -O2
double i2d(int a) { return a; }
float u2f(unsigned a) { return a; }
float l2f(long a) { return (float)a; }
int f2i(float f) { return (int)f; }
unsigned long d2ul(double d) { return (unsigned long)d; }
double f2d(float f) { return f; }
float d2f(double d) { return (float)d; }
// check: cvt.rn.f64.s32 %fd1, %r1;
// check: cvt.rn.f32.u32 %f1, %r1;
// check: cvt.rn.f32.s64 %f1, %rd1;
// check: cvt.rzi.s32.f32 %r1, %f1;
// check: cvt.rzi.u64.f64 %rd1, %fd1;
// check: cvt.f64.f32 %fd1, %f1;
// check: cvt.rn.f32.f64 %f1, %fd1;
