/* Generic-mode teams: reductions in nested `parallel for` and `parallel` (with `single`,
 * `for`, `master`, `barrier` inside), firstprivate and private on the nested parallel. */
#include <stdio.h>

#define N 4096
#define B 8

int main(void)
{
    static int x[N];
    double sums[B];
    int maxs[B];
    long above[B], firsts[B], masters[B];
    for (int i = 0; i < N; i++)
        x[i] = (i * 37) % 101;
#pragma omp target teams map(to : x) map(from : sums, maxs, above, firsts, masters)
    {
        int width = N / B; /* team-level sequential code: generic mode */
#pragma omp distribute
        for (int blk = 0; blk < B; blk++) {
            int lo = blk * width, hi = lo + width;
            double s = 0.0;
            int m = -1;
#pragma omp parallel for reduction(+ : s) reduction(max : m)
            for (int i = lo; i < hi; i++) {
                s += x[i] * 0.5;
                if (x[i] + blk > m)
                    m = x[i] + blk;
            }
            double mean = s * 2.0 / (hi - lo);
            long cnt = 0, first = -1, mast = 0;
            int scale = blk + 1, tmp = 0;
#pragma omp parallel reduction(+ : cnt) firstprivate(scale) private(tmp)
            {
#pragma omp single
                first = lo * scale;
#pragma omp for
                for (int i = lo; i < hi; i++) {
                    tmp = x[i] * scale;
                    if (tmp > mean * scale)
                        cnt++;
                }
#pragma omp master
                mast = first + 1;
#pragma omp barrier
                scale = 0;
            }
            sums[blk] = s;
            maxs[blk] = m;
            above[blk] = cnt + scale * 1000;
            firsts[blk] = first;
            masters[blk] = mast;
        }
    }
    for (int k = 0; k < B; k++)
        printf("blk %d: sum=%.1f max=%d above=%ld first=%ld master=%ld\n", k, sums[k], maxs[k],
               above[k], firsts[k], masters[k]);
    return 0;
}
