/* An explicit `-ffp-contract=fast` wins over the ISO mode's default of `off`. */
// run: -fopenmp --device-only --emit=ptx -O2 -std=c11 -ffp-contract=fast
float muladd(float a, float b, float c) { return a * b + c; }
// check: ld.param.f32 %f3, [muladd_param_2];
// nextln: fma.rn.f32 %f4, %f1, %f2, %f3;
