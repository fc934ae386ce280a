/* A failed assert calls CUDA's __assertfail(message, file, line, function, char size) with
   generic pointers to the strings, then traps; abort() is a trap. */
// run: -fopenmp --device-only --emit=ptx -O2
#include <assert.h>
#include <stdlib.h>
int checked(int x) {
    assert(x > 0);
    if (x > 9)
        abort();
    return x;
}
// check: .extern .func __assertfail(.param .b64 __assertfail_param_0, .param .b64 __assertfail_param_1, .param .b32 __assertfail_param_2, .param .b64 __assertfail_param_3, .param .b64 __assertfail_param_4);
// check: checked(
// check: cvta.global.u64
// check: call __assertfail, (param0, param1, param2, param3, param4);
// nextln: }
// nextln: trap;
// check: trap;
// check: ret;
