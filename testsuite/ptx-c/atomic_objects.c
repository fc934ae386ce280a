/* C11 _Atomic objects: reads, assignments, ++/-- and compound assignments are seq_cst atomic
 * operations (native atom for 4- and 8-byte integers in their own type, a compare-and-swap
 * loop otherwise, on the containing 32-bit word for 1- and 2-byte objects), and
 * <stdatomic.h>'s generic macros. */
// run: -fopenmp --device-only --emit=ptx -O2
#include <stdatomic.h>
_Atomic int counter;
_Atomic unsigned char small;
_Atomic double total;
int bump(void) { return counter++; }
void add(int v) { counter += v; }
void add_small(void) { small -= 1; }
void add_total(void) { total += 0.5; }
int read(void) { return counter; }
void set(int v) { counter = v; }
float c11_float(_Atomic float *p) {
    atomic_store(p, 1.5f);
    return atomic_load_explicit(p, memory_order_acquire);
}
_Bool c11_flag(atomic_flag *f) { return atomic_flag_test_and_set_explicit(f, memory_order_acquire); }
// check: bump(
// check: fence.sc.gpu;
// nextln: atom.global.add.u32 %r2, [counter], %r1;
// nextln: fence.sc.gpu;
// check: add(
// check: fence.sc.gpu;
// nextln: atom.global.add.u32 %r2, [counter], %r1;
// nextln: fence.sc.gpu;
// check: add_small(
// check: ld.volatile.global.u32
// check: sub.s32
// check: atom.global.cas.b32
// check: fence.sc.gpu;
// check: add_total(
// check: ld.volatile.global.u64 %rd$(=\d+), [total];
// check: add.rn.f64
// check: atom.global.cas.b64
// check: read(
// check: fence.sc.gpu;
// nextln: ld.volatile.global.u32 %r1, [counter];
// nextln: fence.sc.gpu;
// check: set(
// check: fence.sc.gpu;
// nextln: atom.global.exch.b32 %r2, [counter], %r1;
// nextln: fence.sc.gpu;
// check: c11_float(
// check: fence.sc.gpu;
// nextln: atom.exch.b32 %r$(=\d+), [%rd1], %r$(=\d+);
// nextln: fence.sc.gpu;
// check: ld.volatile.u32 %r$(=\d+), [%rd1];
// nextln: fence.sc.gpu;
// check: c11_flag(
// check: atom.cas.b32
// check: fence.sc.gpu;
