struct big { long a[4]; };
void f(int *p, float *fp, const int *cp, struct big *bp, long *lp, int n) {
    __atomic_load_n(p);
    __atomic_fetch_add(fp, 1.0f, __ATOMIC_RELAXED);
    __atomic_store_n(cp, 1, __ATOMIC_RELAXED);
    __atomic_exchange_n(bp, *bp, __ATOMIC_SEQ_CST);
    __atomic_load(p, lp, __ATOMIC_ACQUIRE);
    __atomic_fetch_or(n, 1, __ATOMIC_RELAXED);
    __atomic_store_n(p, 1, __ATOMIC_ACQUIRE);
    __atomic_always_lock_free(n, 0);
    __sync_fetch_and_add(p, 1, p, lp);
    __atomic_fetch_min(p, 1, __ATOMIC_RELAXED);
}
// ERROR 3:5: too few arguments to function '__atomic_load_n' [E0431]
// ERROR 4:24: operand type 'float *' is incompatible with argument 1 of '__atomic_fetch_add' [E0433]
// ERROR 5:22: argument 1 of '__atomic_store_n' must be a pointer to a non-const object (type 'const int *') [E0433]
// ERROR 6:25: operand type 'struct big *' is incompatible with argument 1 of '__atomic_exchange_n' [E0433]
// ERROR 7:22: size mismatch in argument 2 of '__atomic_load' [E0433]
// ERROR 8:23: argument 1 of '__atomic_fetch_or' must be a pointer (type 'int') [E0433]
// WARNING 9:28: invalid memory model for '__atomic_store_n' [W0411]
// ERROR 10:31: non-constant argument 1 to '__atomic_always_lock_free' [E0433]
// WARNING 12:5: implicit declaration of function '__atomic_fetch_min' [W0408]
