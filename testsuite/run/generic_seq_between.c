/* Generic-mode teams: sequential code between two nested `parallel for` loops consumes the
 * first loop's results; team-local scalars and a team-local table are shared with the loops. */
#include <stdio.h>

#define N 2048
#define B 16

int main(void)
{
    static double a[N], b[N], c[N];
    double peak[B];
    long marks[B];
    for (int i = 0; i < N; i++)
        a[i] = (i % 17) * 0.5;
#pragma omp target teams map(to : a) map(from : b, c, peak, marks)
    {
        /* team-level sequential code: the region runs in generic mode */
        double step = 0.25;
        int width = N / B;
#pragma omp distribute
        for (int blk = 0; blk < B; blk++) {
            int lo = blk * width, hi = lo + width;
            double bias = blk * step;
#pragma omp parallel for
            for (int i = lo; i < hi; i++)
                b[i] = a[i] * 2.0 + bias;
            /* sequential: read what the loop wrote, build a table for the next loop */
            double p = 0.0;
            for (int i = lo; i < hi; i++)
                if (b[i] > p)
                    p = b[i];
            int tab[8];
            for (int k = 0; k < 8; k++)
                tab[k] = (k * 3 + blk) % 8;
            int shift = lo % 7;
            long mark = 0;
#pragma omp parallel for
            for (int i = lo; i < hi; i++)
                c[i] = b[i] - p + b[lo + (i - lo + shift) % (hi - lo)] * tab[i % 8];
            /* sequential again, after the second loop */
            for (int i = lo; i < hi; i += 16)
                mark += (long)c[i];
            peak[blk] = p;
            marks[blk] = mark;
        }
    }
    double sb = 0.0, sc = 0.0;
    long sm = 0;
    for (int i = 0; i < N; i++) {
        sb += b[i];
        sc += c[i];
    }
    for (int k = 0; k < B; k++)
        sm += marks[k];
    printf("sum_b=%.3f sum_c=%.3f marks=%ld\n", sb, sc, sm);
    printf("peak[0]=%.3f peak[7]=%.3f peak[15]=%.3f c[100]=%.3f c[2047]=%.3f\n", peak[0],
           peak[7], peak[15], c[100], c[2047]);
    return 0;
}
