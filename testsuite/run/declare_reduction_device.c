// User-defined reductions (`declare reduction`) on loops in target regions: a combined
// `target teams distribute parallel for`, a `parallel for` nested in `target` and a `for`
// with a dynamic schedule in a `parallel`. Each such loop runs in order on one device thread
// with the item shared, so the result is the reduction over every iteration.
#include <stdio.h>

typedef struct {
    int lo, hi;
    long count;
} Stats;

static void stats_merge(Stats *out, const Stats *in) {
    out->lo = in->lo < out->lo ? in->lo : out->lo;
    out->hi = in->hi > out->hi ? in->hi : out->hi;
    out->count += in->count;
}

#pragma omp declare reduction(merge : Stats : stats_merge(&omp_out, &omp_in))                 \
    initializer(omp_priv = (Stats){1 << 30, -(1 << 30), 0})

#pragma omp declare target
static unsigned gcd_of(unsigned a, unsigned b) {
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}
#pragma omp end declare target

#pragma omp declare reduction(gcdr : unsigned : omp_out = gcd_of(omp_out, omp_in))            \
    initializer(omp_priv = 0u)

#define N 300

int main(void) {
    int v[N];
    for (int i = 0; i < N; i++)
        v[i] = (i * 97) % 601 - 300;
    Stats s = {1 << 30, -(1 << 30), 0};
#pragma omp target teams distribute parallel for reduction(merge : s) map(to : v) map(tofrom : s)
    for (int i = 0; i < N; i++) {
        if (v[i] < s.lo)
            s.lo = v[i];
        if (v[i] > s.hi)
            s.hi = v[i];
        s.count += v[i] > 0;
    }
    printf("combined: lo %d hi %d positive %ld\n", s.lo, s.hi, s.count);

    unsigned g = 0;
    Stats t = {1 << 30, -(1 << 30), 0};
#pragma omp target map(to : v) map(tofrom : g, t)
    {
#pragma omp parallel for reduction(gcdr : g)
        for (int i = 0; i < N; i++)
            g = gcd_of(g, (unsigned)(36 * (i % 7 + 1)));
#pragma omp parallel num_threads(4)
        {
#pragma omp for reduction(merge : t) schedule(dynamic, 7)
            for (int i = 0; i < N; i += 3) {
                t.lo = v[i] < t.lo ? v[i] : t.lo;
                t.hi = v[i] > t.hi ? v[i] : t.hi;
                t.count++;
            }
        }
    }
    printf("nested: gcd %u, every third: lo %d hi %d count %ld\n", g, t.lo, t.hi, t.count);
    return 0;
}
