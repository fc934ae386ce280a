/* OpenMP 5.1 `unroll`: `partial(4)` as the loop of a worksharing construct (with continue,
 * reduction and lastprivate; 103 iterations leave a short last chunk), a bare `partial` there,
 * `full` of an inner loop, and `partial(3)` in a declare-target function. gcc 12 does not
 * know the directive (the reference build ignores it: the same iterations run). */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#pragma omp declare target
static int tri(int k)
{
    int s = 0;
#pragma omp unroll partial(3)
    for (int i = 0; i <= k; i++)
        s += i;
    return s;
}
#pragma omp end declare target

int main(void)
{
    int n = 103, a[103], b[64], c[40];
    long s = 0;
    int last = -1;
#pragma omp target teams distribute parallel for map(from : a) reduction(+ : s) lastprivate(last)
#pragma omp unroll partial(4)
    for (int i = 0; i < n; i++) {
        if (i == 50)
            continue;
        a[i] = 3 * i;
        s += i;
        last = i;
    }
    a[50] = 0;
    long t = 0;
    for (int i = 0; i < n; i++)
        t += a[i];
    printf("%ld %ld %d\n", s, t, last);
#pragma omp target parallel for map(from : b)
#pragma omp unroll partial
    for (int i = 0; i < 64; i++)
        b[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : b) num_teams(3) thread_limit(5)
    for (int i = 63; i >= 0; i -= 2) {
#pragma omp unroll full
        for (int j = 0; j < 3; j++)
            b[i] += j;
    }
    t = 0;
    for (int i = 0; i < 64; i++)
        t += b[i];
    printf("%ld\n", t);
#pragma omp target teams distribute parallel for map(from : c)
    for (int i = 0; i < 40; i++)
        c[i] = tri(i);
    t = 0;
    for (int i = 0; i < 40; i++)
        t += c[i];
    printf("%ld %d\n", t, c[39]);
    return 0;
}
