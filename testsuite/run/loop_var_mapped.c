/* A mapped variable that is also the iteration variable of a worksharing loop inside the
 * region: lastprivate or linear on the inner loop writes it back, and uses outside the loop
 * see the mapped variable (before: the region never got the variable, so the writes were
 * lost); used only by the loop, the loop privatizes it and the original stays. */
#include <stdio.h>
int main(void) {
    int li = -1, lj = -1, lk = -1, lm = -1, ln = -1;
#pragma omp target map(tofrom: li)
    {
#pragma omp parallel for lastprivate(li)
        for (li = 0; li < 20; li++)
            ;
    }
#pragma omp target teams distribute parallel for lastprivate(lj)
    for (lj = 0; lj < 30; lj++)
        ;
#pragma omp target map(tofrom: lk)
    {
#pragma omp parallel for
        for (lk = 0; lk < 40; lk++)
            ;
    }
    int before = 0, after = 0;
#pragma omp target map(tofrom: lm, before, after)
    {
        before = lm;
        lm = 7;
#pragma omp parallel for
        for (lm = 0; lm < 10; lm++)
            ;
        after = lm;
    }
#pragma omp target map(tofrom: ln)
#pragma omp teams distribute simd linear(ln)
    for (ln = 0; ln < 50; ln++)
        ;
    printf("%d %d %d %d %d %d %d\n", li, lj, lk, lm, before, after, ln);
    return 0;
}
