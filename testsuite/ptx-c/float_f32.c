/* Single precision arithmetic: IEEE round-to-nearest add, sub, mul, div and negation. */
// run: -fopenmp --device-only --emit=ptx -O2
float f32_ops(float a, float b, float c) { return (a + b) * c - a / b; }
float f32_neg(float a) { return -a; }
float f32_poly(float x) { return ((2.0f * x + 3.0f) * x + 1.0f) * x; }
// check: f32_ops(
// check: add.rn.f32 %f4, %f1, %f2;
// nextln: mul.rn.f32 %f5, %f4, %f3;
// nextln: div.rn.f32 %f6, %f1, %f2;
// nextln: sub.rn.f32 %f7, %f5, %f6;
// check: neg.f32 %f2, %f1;
// check: f32_poly(
// check: mov.f32 %f2, 0f40000000;
// check: mov.f32 %f4, 0f40400000;
// not: fma
