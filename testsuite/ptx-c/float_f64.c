/* Double precision arithmetic (at -O2 (a + b) * c - a / b is contracted to fma.rn). */
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
// check: ld.param.f64 $(a=%fd\d+), [f64_ops_param_0];
// nextln: ld.param.f64 $(b=%fd\d+), [f64_ops_param_1];
// nextln: ld.param.f64 $(c=%fd\d+), [f64_ops_param_2];
// nextln: add.rn.f64 $(s=%fd\d+), $a, $b;
// nextln: div.rn.f64 $(q=%fd\d+), $a, $b;
// nextln: neg.f64 $(n=%fd\d+), $q;
// nextln: fma.rn.f64 $(=%fd\d+), $s, $c, $n;
// check: f64_neg(
// check: neg.f64 $(=%fd\d+), $(=%fd\d+);
// check: f64_mean(
// check: ld.f64 $(=%fd\d+), [$(=%rd\d+)];
// nextln: add.rn.f64 $(=%fd\d+), $(=%fd\d+), $(=%fd\d+);
// check: cvt.rn.f64.s32 $(=%fd\d+), $(=%r\d+);
// nextln: div.rn.f64 $(=%fd\d+), $(=%fd\d+), $(=%fd\d+);
