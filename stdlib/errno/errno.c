/* errno on the device: one int per device module (every unit links its own copy of the
 * library), shared by all threads of every kernel of that module. C wants errno
 * thread-local; the device has no thread-local storage that outlives a call, and a table
 * indexed by thread id would need a size known only at launch. So a value written by one
 * thread can be seen, or overwritten, by another running at the same time: errno is exact in
 * code that one thread runs (a `target` region without `parallel`, or `single`), a shared
 * flag ("some conversion failed") elsewhere. LLVM's GPU libc makes the same choice.
 * This is the library's only mutable global. */
#include "ompcc_errno.h"

static int ompcc_errno_value;

int *__ompcc___errno_location(void) {
    return &ompcc_errno_value;
}
