/* Inlining attributes at -O1 (threshold 40 instructions). `big` is over the threshold: a
   plain call to it stays a call, its `always_inline` twin is inlined anyway. `tiny` is
   small, but `noinline` (on its prototype) keeps the call. `inline` gives a hint (twice the
   threshold): `mid`, the same size as `big`, is inlined. */
// run: -fopenmp --device-only --emit=ptx -O1
#define STEP x = x * 1.5f + 0.25f; x = x / 3.0f - 0.5f;
#define STEPS STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP
float big(float x) { STEPS return x; }
__attribute__((always_inline)) float big_always(float x) { STEPS return x; }
float tiny(float x) __attribute__((noinline));
float tiny(float x) { return x + 1.0f; }
inline float mid(float x) { STEPS return x; }
float plain_call(float x) { return big(x); }
float forced(float x) { return big_always(x); }
float kept(float x) { return tiny(x); }
float hinted(float x) { return mid(x); }
// check: ld.param.f32 %f1, [plain_call_param_0];
// check: call (retval0), big, (param0);
// check: ret;
// check: ld.param.f32 %f1, [forced_param_0];
// not: call
// check: div.rn.f32
// not: call
// check: ret;
// check: ld.param.f32 %f1, [kept_param_0];
// check: call (retval0), tiny, (param0);
// check: ret;
// check: ld.param.f32 %f1, [hinted_param_0];
// not: call
// check: div.rn.f32
// not: call
// check: ret;
