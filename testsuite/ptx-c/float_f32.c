/* Single precision arithmetic: IEEE round-to-nearest add, sub, mul, div and negation;
   at -O2 a multiply feeding an add in one expression is contracted to fma.rn. */
// run: -fopenmp --device-only --emit=ptx -O2
float f32_ops(float a, float b, float c) { return (a + b) * c - a / b; }
float f32_neg(float a) { return -a; }
float f32_poly(float x) { return ((2.0f * x + 3.0f) * x + 1.0f) * x; }
// check: f32_ops(
// check: ld.param.f32 $(a=%f\d+), [f32_ops_param_0];
// nextln: ld.param.f32 $(b=%f\d+), [f32_ops_param_1];
// nextln: ld.param.f32 $(c=%f\d+), [f32_ops_param_2];
// nextln: add.rn.f32 $(s=%f\d+), $a, $b;
// nextln: div.rn.f32 $(q=%f\d+), $a, $b;
// nextln: neg.f32 $(n=%f\d+), $q;
// nextln: fma.rn.f32 $(=%f\d+), $s, $c, $n;
// check: f32_neg(
// check: neg.f32 $(=%f\d+), $(=%f\d+);
// check: f32_poly(
// check: ld.param.f32 $(x=%f\d+), [f32_poly_param_0];
// nextln: mov.f32 $(two=%f\d+), 0f40000000;
// nextln: mov.f32 $(three=%f\d+), 0f40400000;
// nextln: fma.rn.f32 $(t=%f\d+), $two, $x, $three;
// check: fma.rn.f32 $(u=%f\d+), $t, $x, $(=%f\d+);
// nextln: mul.rn.f32 $(=%f\d+), $u, $x;
