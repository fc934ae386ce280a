/* Generic-mode teams whose sequential part calls device functions that ask the OpenMP API
 * about their team, outside and inside nested parallel regions. */
#include <omp.h>
#include <stdio.h>

#define B 3

#pragma omp declare target
static int where(void)
{
    /* 0 of 1 on a team's main thread outside parallel regions */
    return omp_get_thread_num() * 100 + omp_get_num_threads() + 10 * omp_in_parallel();
}

static int scale(int x)
{
    return 3 * x + where();
}

static int check_inside(int k)
{
    int t = omp_get_thread_num(), n = omp_get_num_threads();
    return t >= 0 && t < n && n <= k && (n > 1) == (omp_in_parallel() != 0) && omp_get_level() == 1;
}
#pragma omp end declare target

int main(void)
{
    int out[B], after[B], ok[B], ok4[B], one[B];
    long tot[B];
#pragma omp target teams num_teams(B) thread_limit(16) map(from : out, after, ok, ok4, tot, one)
    {
#pragma omp distribute
        for (int b = 0; b < B; b++) {
            int v = scale(b); /* a call in the sequential part */
            int good = 1;
            long s = 0;
#pragma omp parallel reduction(&& : good) reduction(+ : s)
            {
                good = check_inside(1 << 20);
                s += omp_get_thread_num() == 0 ? 1 : 0;
            }
            int good4 = 1, lone = 0;
#pragma omp parallel num_threads(4) reduction(&& : good4)
            good4 = check_inside(4);
#pragma omp parallel if (b > 100) reduction(+ : lone)
            lone = where() + check_inside(1);
            out[b] = v;
            ok[b] = good && s == 1;
            ok4[b] = good4;
            one[b] = lone;
            tot[b] = where();
            after[b] = scale(1);
        }
    }
    for (int b = 0; b < B; b++)
        printf("b=%d out=%d ok=%d ok4=%d one=%d tot=%ld after=%d\n", b, out[b], ok[b], ok4[b],
               one[b], tot[b], after[b]);
    return 0;
}
