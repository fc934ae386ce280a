/* GNU atomic builtins on the device: loads, stores, exchanges, compare-exchanges and fetch
 * operations of 1, 2, 4 and 8 bytes and pointers, with their memory orders (fences before a
 * release, after an acquire); 1- and 2-byte read-modify-writes are compare-and-swap loops on
 * the containing 32-bit word. */
// run: -fopenmp --device-only --emit=ptx -O2
int load_relaxed(int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
long load_acquire(long *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
int load_seq_cst(int *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
void store_release(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
void store_relaxed_u8(unsigned char *p, unsigned char v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
int fetch_add_relaxed(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
long sub_fetch(long *p, long v) { return __atomic_sub_fetch(p, v, __ATOMIC_ACQ_REL); }
unsigned fetch_nand(unsigned *p, unsigned v) { return __atomic_fetch_nand(p, v, __ATOMIC_RELAXED); }
short fetch_add_i16(short *p, short v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
int exchange(int *p, int v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
_Bool cas_strong(long *p, long *expected, long desired) {
    return __atomic_compare_exchange_n(p, expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}
_Bool cas_u8(unsigned char *p, unsigned char *expected, unsigned char desired) {
    return __atomic_compare_exchange_n(p, expected, desired, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
int *ptr_fetch_add(int **p) { return __atomic_fetch_add(p, sizeof(int), __ATOMIC_RELAXED); }
_Bool test_and_set(char *flag) { return __atomic_test_and_set(flag, __ATOMIC_ACQUIRE); }
void clear(char *flag) { __atomic_clear(flag, __ATOMIC_RELEASE); }
void fences(void) {
    __atomic_thread_fence(__ATOMIC_ACQ_REL);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_RELAXED);
}
int sync_fetch_and_or(int *p, int m) { return __sync_fetch_and_or(p, m); }
long sync_val_cas(long *p, long o, long n) { return __sync_val_compare_and_swap(p, o, n); }
_Bool sync_bool_cas(int *p, int o, int n) { return __sync_bool_compare_and_swap(p, o, n); }
int sync_lock(int *p) { return __sync_lock_test_and_set(p, 1); }
void sync_unlock(int *p) { __sync_lock_release(p); }
void sync_full(void) { __sync_synchronize(); }
int lock_free(void) { return __atomic_always_lock_free(sizeof(long), 0) + __atomic_is_lock_free(16, 0); }
// check: load_relaxed(
// not: fence
// check: ld.volatile.u32
// not: fence
// check: ret;
// check: load_acquire(
// check: ld.volatile.u64 %rd2, [%rd1];
// nextln: fence.sc.gpu;
// check: load_seq_cst(
// check: fence.sc.gpu;
// nextln: ld.volatile.u32 %r1, [%rd1];
// nextln: fence.sc.gpu;
// check: store_release(
// check: fence.sc.gpu;
// nextln: atom.exch.b32 %r2, [%rd1], %r1;
// nextln: ret;
// check: store_relaxed_u8(
// not: fence
// check: mov.u32 %r4, 255;
// check: atom.cas.b32 %r12, [%rd6], %r6, %r11;
// not: fence
// check: ret;
// check: fetch_add_relaxed(
// not: fence
// check: atom.add.u32 %r2, [%rd1], %r1;
// check: sub_fetch(
// check: fence.sc.gpu;
// nextln: neg.s64 %rd4, %rd2;
// nextln: atom.add.u64 %rd3, [%rd1], %rd4;
// nextln: fence.sc.gpu;
// nextln: sub.s64 %rd5, %rd3, %rd2;
// check: fetch_nand(
// check: and.b32 %r3, %r2, %r1;
// nextln: not.b32 %r4, %r3;
// nextln: atom.cas.b32 %r5, [%rd1], %r2, %r4;
// check: fetch_add_i16(
// check: mov.u32 %r4, 65535;
// check: ld.volatile.u32 %r6, [%rd6];
// check: add.s16 %rs3, %rs2, %rs1;
// check: atom.cas.b32 %r13, [%rd6], %r6, %r12;
// check: exchange(
// check: fence.sc.gpu;
// nextln: atom.exch.b32 %r2, [%rd1], %r1;
// nextln: fence.sc.gpu;
// check: cas_strong(
// check: ld.u64 %rd4, [%rd2];
// nextln: fence.sc.gpu;
// nextln: atom.cas.b64 %rd5, [%rd1], %rd4, %rd3;
// nextln: fence.sc.gpu;
// nextln: setp.eq.b64 %p1, %rd5, %rd4;
// check: st.u64 [%rd2], %rd5;
// check: cas_u8(
// check: mov.u32 %r4, 255;
// check: atom.cas.b32
// check: st.u8 [%rd2], %rs3;
// check: ptr_fetch_add(
// check: mov.u64 %rd2, 4;
// nextln: atom.add.u64 %rd3, [%rd1], %rd2;
// check: test_and_set(
// check: atom.cas.b32
// check: fence.sc.gpu;
// check: clear(
// check: fence.sc.gpu;
// check: atom.cas.b32
// not: fence
// check: ret;
// check: fences()
// nextln: {
// nextln: fence.sc.gpu;
// nextln: ret;
// check: sync_fetch_and_or(
// check: fence.sc.gpu;
// nextln: atom.or.b32 %r2, [%rd1], %r1;
// nextln: fence.sc.gpu;
// check: sync_val_cas(
// check: atom.cas.b64 %rd4, [%rd1], %rd2, %rd3;
// check: sync_bool_cas(
// check: atom.cas.b32 %r3, [%rd1], %r1, %r2;
// nextln: fence.sc.gpu;
// nextln: setp.eq.b32 %p1, %r3, %r1;
// check: sync_lock(
// not: fence
// check: atom.exch.b32 %r2, [%rd1], %r1;
// nextln: fence.sc.gpu;
// check: sync_unlock(
// check: fence.sc.gpu;
// nextln: atom.exch.b32 %r2, [%rd1], %r1;
// check: sync_full()
// check: fence.sc.gpu;
// check: lock_free()
// check: mov.u32 %r1, 1;
