// `scan` (OpenMP 5.0) in worksharing loops inside target regions: inclusive and exclusive
// prefix reductions (+ on int, max, * on double), the reduction item's original value
// included, a `for` in a `parallel`; the item ends with the whole reduction. Each such loop
// runs in order on one thread (no schedule is allowed with `inscan`).
#include <stdio.h>

#define N 64

int main(void) {
    int a[N], inc[N], exc[N];
    double f[N], prod[N];
    for (int i = 0; i < N; i++) {
        a[i] = (i * 13) % 9 - 3;
        f[i] = i % 4 == 0 ? 2.0 : (i % 4 == 1 ? 0.5 : (i % 4 == 2 ? 1.5 : 1.0));
    }
    int s = 10, t = -5;
    double p = 1.0;
    long rows = 0, row_scan[N / 4];
#pragma omp target map(to : a, f) map(from : inc, exc, prod, row_scan) map(tofrom : s, t, p, rows)
    {
        // an inner loop that sums a row before the scan (no lane group may take it)
#pragma omp parallel for reduction(inscan, + : rows)
        for (int r = 0; r < N / 4; r++) {
            {
                long sum = 0;
                for (int c = 0; c < 4; c++)
                    sum += a[4 * r + c] * (c + 1);
                rows += sum;
            }
#pragma omp scan inclusive(rows)
            row_scan[r] = rows;
        }
#pragma omp parallel for reduction(inscan, + : s)
        for (int i = 0; i < N; i++) {
            s += a[i];
#pragma omp scan inclusive(s)
            inc[i] = s;
        }
#pragma omp parallel num_threads(4)
        {
#pragma omp for reduction(inscan, * : p)
            for (int i = 0; i < N; i++) {
                p *= f[i];
#pragma omp scan inclusive(p)
                prod[i] = p;
            }
        }
#pragma omp parallel for reduction(inscan, max : t)
        for (int i = 0; i < N; i++) {
            exc[i] = t;
#pragma omp scan exclusive(t)
            t = a[i] * (i % 5) > t ? a[i] * (i % 5) : t;
        }
    }
    long check = 0;
    for (int i = 0; i < N; i++)
        check = check * 3 % 1000003 + inc[i] * 7 + exc[i];
    printf("inclusive +: %d %d %d, total %d\n", inc[0], inc[N / 2], inc[N - 1], s);
    printf("exclusive max: %d %d %d, total %d\n", exc[0], exc[7], exc[N - 1], t);
    printf("inclusive *: %g %g %g, total %g\n", prod[0], prod[9], prod[N - 1], p);
    printf("rows: %ld %ld %ld\n", row_scan[0], row_scan[N / 8], rows);
    printf("checksum %ld\n", check);
    return 0;
}
