/* Double precision arithmetic. */
// run: -fopenmp --device-only --emit=ptx -O2
double f64_ops(double a, double b, double c) { return (a + b) * c - a / b; }
double f64_neg(double a) { return -a; }
double f64_mean(const double *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s / n;
}
// check: f64_ops(
// check: add.rn.f64 %fd4, %fd1, %fd2;
// nextln: mul.rn.f64 %fd5, %fd4, %fd3;
// nextln: div.rn.f64 %fd6, %fd1, %fd2;
// nextln: sub.rn.f64 %fd7, %fd5, %fd6;
// check: neg.f64 %fd2, %fd1;
// check: f64_mean(
// check: ld.f64 %fd3, [%rd5];
// nextln: add.rn.f64 %fd4, %fd2, %fd3;
// check: cvt.rn.f64.s32 %fd5, %r1;
// nextln: div.rn.f64 %fd6, %fd2, %fd5;
