/* The OpenMP lock API on the device: a compare-and-swap spin to take a lock, a fence after
 * taking and before releasing, and nest locks owned by the grid-wide thread index. */
// run: -fopenmp --device-only --emit=ptx -O2
#include <omp.h>
void init(omp_lock_t *l) { omp_init_lock(l); }
void take(omp_lock_t *l) { omp_set_lock(l); }
void give(omp_lock_t *l) { omp_unset_lock(l); }
int try_take(omp_lock_t *l) { return omp_test_lock(l); }
void take_nest(omp_nest_lock_t *l) { omp_set_nest_lock(l); }
void give_nest(omp_nest_lock_t *l) { omp_unset_nest_lock(l); }
int try_nest(omp_nest_lock_t *l) { return omp_test_nest_lock(l); }
// check: init(
// check: st.volatile.u32 [%rd1], %r1;
// check: take(
// check: $$L__BB1:
// nextln: atom.cas.b32 %r3, [%rd1], %r1, %r2;
// nextln: setp.eq.b32 %p1, %r3, %r1;
// nextln: @!%p1 bra $$L__BB1;
// check: fence.sc.gpu;
// check: give(
// check: fence.sc.gpu;
// check: atom.exch.b32
// check: try_take(
// check: atom.cas.b32
// nextln: fence.sc.gpu;
// check: take_nest(
// check: %ctaid.x
// check: ld.volatile.u64
// check: atom.cas.b32
// check: st.volatile.u64
// check: give_nest(
// check: ld.volatile.u32
// check: st.volatile.u64
// check: fence.sc.gpu;
// check: atom.exch.b32
// check: try_nest(
// check: ld.volatile.u64
// check: atom.cas.b32
