/* `-C inline-threshold=0`: no callee fits, so even a one-add static function stays a call
   at -O2 (which inlines it by default). */
// run: -fopenmp --device-only --emit=ptx -O2 -C inline-threshold=0
static float tiny(float x) { return x + 1.0f; }
float twice(float x) { return tiny(x) * tiny(x * 2.0f); }
// check: .func (.param .b32 tiny_retval0) tiny(.param .b32 tiny_param_0)
// check: ld.param.f32 %f1, [twice_param_0];
// check: call (retval0), tiny, (param0);
// check: call (retval0), tiny, (param0);
// check: ret;
