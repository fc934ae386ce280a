/* <math.h> classification macros on the device: glibc expands them to type-generic builtins
 * (__builtin_isnan, __builtin_isinf_sign, __builtin_signbit, __builtin_fpclassify, ...),
 * computed in the argument's own type by compares and bit tests. */
// run: -fopenmp --device-only --emit=ptx -O2
#include <math.h>
int nan_d(double x) { return isnan(x); }
int inf_f(float x) { return isinf(x); }
int finite_d(double x) { return isfinite(x); }
int normal_f(float x) { return isnormal(x); }
int sign_d(double x) { return signbit(x) != 0; }
int sign_f(float x) { return signbit(x) != 0; }
int classify_d(double x) { return fpclassify(x); }
int greater(float a, double b) { return isgreater(a, b); }
// check: nan_d(
// check: setp.nan.f64 %p1, %fd1, %fd1;
// nextln: selp.u32 %r1, 1, 0, %p1;
// check: inf_f(
// check: abs.f32 %f2, %f1;
// nextln: mov.f32 %f3, 0f7F800000;
// nextln: setp.eq.f32 %p1, %f2, %f3;
// check: selp.b32 %r6, %r5, %r2, %p1;
// check: finite_d(
// check: abs.f64 %fd2, %fd1;
// check: setp.lt.f64 %p1, %fd2, %fd3;
// check: normal_f(
// not: cvt.f64.f32
// check: mov.f32 %f3, 0f00800000;
// check: setp.ge.f32 %p1, %f2, %f3;
// nextln: setp.lt.f32 %p2, %f2, %f4;
// nextln: and.pred %p3, %p1, %p2;
// check: sign_d(
// check: mov.b64 %rd1, %fd1;
// check: setp.lt.s64 %p1, %rd1, %rd2;
// check: sign_f(
// check: mov.b32 %r1, %f1;
// check: setp.lt.s32 %p1, %r1, %r2;
// check: classify_d(
// check: setp.eq.f64 %p1, %fd1, %fd2;
// check: setp.nan.f64 %p6, %fd1, %fd1;
// nextln: selp.b32 %r6, %r5, %r4, %p1;
// nextln: selp.b32 %r7, %r3, %r6, %p4;
// nextln: selp.b32 %r8, %r2, %r7, %p5;
// nextln: selp.b32 %r9, %r1, %r8, %p6;
// check: greater(
// check: cvt.f64.f32 %fd2, %f1;
// nextln: setp.gt.f64 %p1, %fd2, %fd1;
