/* snprintf on the device: a call of the device C library's variadic __ompcc_snprintf with
   the named arguments first and the packed variadic ones (an int at 0, a double at 8, a
   pointer at 16) behind the hidden last parameter; the library's definition is linked in. */
// run: -fopenmp --device-only --emit=ptx -O2
// local-memory: yes
#include <stdio.h>
int label(char *buf, int i, double x, const char *name) {
    return snprintf(buf, 32, "%d:%.3f:%s", i, x, name);
}
// check: .func (.param .b32 __ompcc_snprintf_retval0) __ompcc_snprintf(.param .b64 __ompcc_snprintf_param_0, .param .b64 __ompcc_snprintf_param_1, .param .b64 __ompcc_snprintf_param_2, .param .b64 __ompcc_snprintf_param_3)
// check: label(
// check: .local .align 8 .b8 __stack_0[24];
// check: st.local.u32 [__stack_0],
// check: st.local.f64 [__stack_0+8],
// check: st.local.u64 [__stack_0+16],
// check: call (retval0), __ompcc_snprintf, (param0, param1, param2, param3);
