/* Float compares: ordered and unordered (C's != is true on NaN). */
// run: -fopenmp --device-only --emit=ptx -O2
int f_lt(float a, float b) { return a < b; }
int d_ge(double a, double b) { return a >= b; }
int f_ne(float a, float b) { return a != b; }
int d_is_nan(double a) { return a != a; }
double d_sel(double a, double b) { return a <= b ? a : b; }
// check: f_lt(
// check: setp.lt.f32 %p1, %f1, %f2;
// nextln: selp.u32 %r1, 1, 0, %p1;
// check: d_ge(
// check: setp.ge.f64 %p1, %fd1, %fd2;
// check: f_ne(
// check: setp.neu.f32 %p1, %f1, %f2;
// check: d_is_nan(
// check: setp.neu.f64 %p1, %fd1, %fd1;
// check: d_sel(
// check: setp.le.f64 %p1, %fd1, %fd2;
