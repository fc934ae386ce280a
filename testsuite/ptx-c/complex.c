/* _Complex double/float: parts in registers after sroa/mem2reg, `*` with the NaN check
 * that calls __ompcc___muldc3, `/` through __ompcc___divdc3, complex parameters and results
 * through pointers (like structs). */
// run: -fopenmp --device-only --emit=ptx -O2
// Library results (__muldc3, __divdc3) come back through a local result slot.
// local-memory: yes
double _Complex cmul(double _Complex a, double _Complex b) { return a * b; }
double _Complex cdiv(double _Complex a, double _Complex b) { return a / b; }
float _Complex cadd_real(float _Complex a, float r) { return a + r; }
double cnorm(double _Complex a) { return __real__ a * __real__ a + __imag__ a * __imag__ a; }
int ceq(double _Complex a, double _Complex b) { return a == b; }
// check: cmul(
// check: mul.rn.f64
// check: setp.nan.f64
// check: setp.nan.f64
// check: call __ompcc___muldc3,
// check: cdiv(
// check: call __ompcc___divdc3,
// check: cadd_real(
// check: add.rn.f32
// check: cnorm(
// check: ld.f64
// check: ceq(
// check: setp.eq.f64
// check: setp.eq.f64
