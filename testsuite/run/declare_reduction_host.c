// A user-defined reduction (`declare reduction`) on host loops of a unit that also has target
// regions: the host compiler implements it (ompcc passed it through only in units without a
// target region before, and refused the reduction identifier otherwise), while the target
// regions use the built-in operators.
#include <stdio.h>

typedef struct {
    int lo, hi;
} Range;

#pragma omp declare reduction(widen : Range : omp_out.lo = omp_in.lo < omp_out.lo             \
                                  ? omp_in.lo : omp_out.lo,                                   \
                              omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi)     \
    initializer(omp_priv = (Range){1 << 30, -(1 << 30)})
#pragma omp declare reduction(keepmax : int : omp_out = omp_in > omp_out ? omp_in : omp_out)   \
    initializer(omp_priv = -(1 << 30))

#define N 200

int main(void) {
    int v[N];
    for (int i = 0; i < N; i++)
        v[i] = (i * 73) % 199 - 99;
    Range r = {1 << 30, -(1 << 30)};
    int best = -(1 << 30);
#pragma omp parallel for reduction(widen : r) reduction(keepmax : best)
    for (int i = 0; i < N; i++) {
        if (v[i] < r.lo)
            r.lo = v[i];
        if (v[i] > r.hi)
            r.hi = v[i];
        if (2 * v[i] + 1 > best)
            best = 2 * v[i] + 1;
    }
    printf("host: range [%d, %d], best %d\n", r.lo, r.hi, best);

    int lo = 1 << 30, hi = -(1 << 30);
    long sum = 0;
#pragma omp target teams distribute parallel for map(to : v) reduction(min : lo) \
    reduction(max : hi) reduction(+ : sum)
    for (int i = 0; i < N; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
        sum += v[i];
    }
    printf("device: range [%d, %d], sum %ld, same %d\n", lo, hi, sum, lo == r.lo && hi == r.hi);
    return 0;
}
