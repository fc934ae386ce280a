/* The OpenMP device API inside kernels: omp_get_team_num/num_teams/thread_num/num_threads used
 * to partition work by hand (results independent of the geometry), omp_is_initial_device and
 * omp_get_thread_limit checked for sane values; only invariants are printed. */
#include <stdio.h>
#include <omp.h>

#define N 10000
#define MAXT 4096

int main(void)
{
    static long part[MAXT];
    static int a[N];
    int sane = 1;
#pragma omp target teams num_teams(4) thread_limit(32) map(tofrom : part, a, sane)
    {
#pragma omp parallel
        {
            int team = omp_get_team_num(), nteams = omp_get_num_teams();
            int tid = omp_get_thread_num(), nthr = omp_get_num_threads();
            int g = team * nthr + tid, stride = nteams * nthr;
            long s = 0;
            for (int i = g; i < N; i += stride) {
                a[i] = i % 10;
                s += i;
            }
            if (g < MAXT)
                part[g] = s;
            int d = omp_is_initial_device();
            if (team >= nteams || tid >= nthr || nthr > 32 || nteams > 4 || (d != 0 && d != 1) ||
                omp_get_thread_limit() < 1 || stride > MAXT)
                sane = 0;
        }
    }
    long total = 0, as = 0;
    for (int i = 0; i < MAXT; i++)
        total += part[i];
    for (int i = 0; i < N; i++)
        as += a[i];
    printf("total=%ld as=%ld sane=%d\n", total, as, sane);
    return 0;
}
