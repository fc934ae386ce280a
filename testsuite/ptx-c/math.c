/* Math builtins that are single PTX instructions: sqrt, fma, fmin/fmax, fabs, floor, ceil,
   trunc, copysign. */
// run: -fopenmp --device-only --emit=ptx -O2
double hyp(double x, double y) { return __builtin_sqrt(__builtin_fma(x, x, y * y)); }
float hypf(float x, float y) { return __builtin_sqrtf(__builtin_fmaf(x, x, y * y)); }
double lo(double a, double b) { return __builtin_fmin(a, b); }
float hi(float a, float b) { return __builtin_fmaxf(a, b); }
double rounds(double x) {
    return __builtin_floor(x) + __builtin_ceil(x) + __builtin_trunc(x);
}
double sign(double m, double s) { return __builtin_copysign(__builtin_fabs(m), s); }
// check: hyp(
// check: mul.rn.f64 %fd3, %fd2, %fd2;
// nextln: fma.rn.f64 %fd4, %fd1, %fd1, %fd3;
// nextln: sqrt.rn.f64 %fd5, %fd4;
// check: hypf(
// check: fma.rn.f32 %f4, %f1, %f1, %f3;
// nextln: sqrt.rn.f32 %f5, %f4;
// check: lo(
// check: min.f64 %fd3, %fd1, %fd2;
// check: hi(
// check: max.f32 %f3, %f1, %f2;
// check: rounds(
// check: cvt.rmi.f64.f64 %fd2, %fd1;
// nextln: cvt.rpi.f64.f64 %fd3, %fd1;
// check: cvt.rzi.f64.f64 %fd5, %fd1;
// check: sign(
// check: abs.f64 %fd3, %fd1;
// nextln: copysign.f64 %fd4, %fd2, %fd3;
// not: call
