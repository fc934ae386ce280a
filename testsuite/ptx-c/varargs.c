/* A variadic device function and its caller (the device varargs ABI): the callee takes a
   hidden trailing .b64 parameter, the generic address of the caller's argument buffer;
   va_arg aligns the cursor up, loads and advances it; the caller stores its promoted
   arguments (the float converted to double) at offsets 0, 8 and 16 of one local buffer and
   passes that buffer's generic address last. */
// run: -fopenmp --device-only --emit=ptx -O2
// local-memory: yes
#include <stdarg.h>
__attribute__((noinline)) double weigh(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s;
}
double caller(float x, int k) {
    return weigh(3, x, (double)k, 2.5);
}
// check: .visible .func (.param .b64 weigh_retval0) weigh(.param .b32 weigh_param_0, .param .b64 weigh_param_1)
// check: ld.param.b64 $(=%rd\d+), [weigh_param_1];
// check: and.b64 $(=%rd\d+), $(=%rd\d+), $(=%rd\d+);
// check: ld.f64 $(=%fd\d+), [$(=%rd\d+)];
// check: caller(
// check: .local .align 8 .b8 __stack_0[24];
// check: cvt.f64.f32 $(xd=%fd\d+), $(=%f\d+);
// check: st.local.f64 [__stack_0], $xd;
// check: st.local.f64 [__stack_0+8],
// check: st.local.f64 [__stack_0+16],
// check: cvta.local.u64 $(buf=%rd\d+),
// check: st.param.b64 [param1], $buf;
// check: call (retval0), weigh, (param0, param1);
