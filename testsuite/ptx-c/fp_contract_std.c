/* gcc's fp-contract defaults: `-std=c11` (an ISO mode) means `-ffp-contract=off`, so
   `a * b + c` stays a rounded multiply and a rounded add (the GNU modes fuse it into fma). */
// run: -fopenmp --device-only --emit=ptx -O2 -std=c11
float muladd(float a, float b, float c) { return a * b + c; }
// check: ld.param.f32 %f3, [muladd_param_2];
// not: fma
// check: mul.rn.f32 %f4, %f1, %f2;
// nextln: add.rn.f32 %f5, %f4, %f3;
