/* num_teams and thread_limit clauses (constants and runtime values), num_threads on target
 * parallel: the results must not depend on the geometry, only the in-range checks are printed. */
#include <stdio.h>
#include <omp.h>

#define N 10000

int main(void)
{
    static int a[N];
    int teams_ok = 1, threads_ok = 1;
#pragma omp target teams distribute parallel for num_teams(4) thread_limit(64) map(from : a) \
    reduction(&& : teams_ok, threads_ok)
    for (int i = 0; i < N; i++) {
        a[i] = i % 101;
        teams_ok = teams_ok && omp_get_num_teams() <= 4 && omp_get_team_num() < 4;
        threads_ok = threads_ok && omp_get_num_threads() <= 64;
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("sum=%ld teams_ok=%d threads_ok=%d\n", s, teams_ok, threads_ok);

    for (int nt = 1; nt <= 16; nt *= 4) {
        int tl = 32 * nt;
        long t = 0;
#pragma omp target teams distribute parallel for num_teams(nt) thread_limit(tl) reduction(+ : t)
        for (int i = 0; i < N; i++)
            t += (long)i * (i % 3);
        printf("num_teams(%d) thread_limit(%d): t=%ld\n", nt, tl, t);
    }

    int in_range = 1;
#pragma omp target parallel for num_threads(8) reduction(&& : in_range) map(tofrom : a)
    for (int i = 0; i < N; i++) {
        a[i] += 1;
        in_range = in_range && omp_get_thread_num() < omp_get_num_threads() &&
                   omp_get_num_threads() <= 8;
    }
    s = 0;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("sum=%ld in_range=%d\n", s, in_range);
    return 0;
}
