/* Device printf becomes vprintf with CUDA's argument buffer: doubles for floats, widened
   small integers, 8-byte-aligned 64-bit values. */
// local-memory: yes
// run: -fopenmp --device-only --emit=ptx -O2
#include <stdio.h>
void report(int i, float f, long l, const char *s) {
    printf("i=%d f=%f l=%ld s=%s\n", i, f, l, s);
}
void hello(void) { printf("hello\n"); }
// check: .extern .func (.param .b32 vprintf_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
// check: .b8 __str[22] = {105, 61, 37, 100,
// check: report(
// check: .local .align 8 .b8 __stack_0[32];
// check: cvt.f64.f32 %fd1, %f1;
// check: st.local.u32 [__stack_0], %r1;
// check: st.local.f64 [__stack_0+8], %fd1;
// check: st.local.u64 [__stack_0+16], %rd1;
// check: st.local.u64 [__stack_0+24], %rd2;
// check: cvta.local.u64 %rd12, %rd5;
// check: call (retval0), vprintf, (param0, param1);
// check: hello()
// check: mov.u64 %rd3, 0;
// check: call (retval0), vprintf, (param0, param1);
