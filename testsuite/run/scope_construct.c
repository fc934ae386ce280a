/* scope (OpenMP 5.1) in device parallel regions: reductions of per-thread partial results
 * (+, max, &&) that every thread sees after the scope's barrier, private copies, nowait,
 * and scope in the parallel region of a generic teams kernel. */
#include <omp.h>
#include <stdio.h>

#define N 200

int main(void)
{
    static int v[N];
    int expect = 0;
    for (int i = 0; i < N; i++) {
        v[i] = (i * 7) % 17;
        expect += v[i];
    }
    int total = 0, mx = -1, all_see = 1, fp_ok = 1;
    double wsum = 0;
#pragma omp target parallel num_threads(8) map(to : v) map(tofrom : total, mx, all_see, fp_ok, wsum)
    {
        int part = 0, pm = -1;
#pragma omp for nowait
        for (int i = 0; i < N; i++) {
            part += v[i];
            pm = v[i] > pm ? v[i] : pm;
        }
#pragma omp scope reduction(+ : total) reduction(max : mx)
        {
            total += part;
            mx = pm > mx ? pm : mx;
        }
        /* the scope ended with a barrier: every thread sees the complete sum */
        int seen = total;
        int base = 100, tmp = -5;
#pragma omp scope private(tmp, base) reduction(&& : all_see, fp_ok) nowait
        {
            base = 100;
            tmp = base + omp_get_thread_num();
            all_see = all_see && seen == expect;
            fp_ok = fp_ok && tmp - omp_get_thread_num() == 100;
            base = -1;
        }
#pragma omp barrier
#pragma omp scope reduction(+ : wsum)
        wsum += 0.5 * (base == 100) * (tmp == -5);
    }
    printf("total=%d expect=%d mx=%d all_see=%d fp_ok=%d wsum_pos=%d\n", total, expect, mx,
           all_see, fp_ok, wsum > 0);

    int teams_ok = 1;
#pragma omp target teams num_teams(3) map(to : v) map(tofrom : teams_ok) reduction(&& : teams_ok)
    {
        int team_sum = 0; /* shared by the team's threads */
#pragma omp parallel num_threads(4)
        {
            int mine = 0;
#pragma omp for
            for (int i = 0; i < N; i++)
                mine += v[i];
#pragma omp scope reduction(+ : team_sum)
            team_sum += mine;
        }
        teams_ok = teams_ok && team_sum == expect;
    }
    printf("teams_ok=%d\n", teams_ok);
    return 0;
}
