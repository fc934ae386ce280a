/* Teams regions with sequential code around nested parallel loops (the "generic" execution
 * mode): per-team setup, a parallel for inside each team, a team-level reduction into a
 * per-team slot, and distribute followed by separate parallel loops. Only totals that do not
 * depend on how many teams or threads ran are printed. */
#include <stdio.h>
#include <omp.h>

#define N 4096
#define MAX_TEAMS 64

int main(void)
{
    static double a[N];
    double partial[MAX_TEAMS] = {0};
    int teams_seen = 0;
#pragma omp target teams num_teams(8) map(tofrom : a, partial, teams_seen)
    {
        int t = omp_get_team_num(), nt = omp_get_num_teams();
        if (t == 0)
            teams_seen = nt >= 1 && nt <= 8; /* checked on the device, reported as a flag */
        /* sequential part, run once per team: this team's share of the index space */
        int chunk = (N + nt - 1) / nt;
        int lo = t * chunk, hi = lo + chunk < N ? lo + chunk : N;
#pragma omp parallel for
        for (int i = lo; i < hi; i++)
            a[i] = 1.0 + (i % 16) * 0.5;
        double s = 0.0;
#pragma omp parallel for reduction(+ : s)
        for (int i = lo; i < hi; i++)
            s += a[i];
        if (t < MAX_TEAMS)
            partial[t] = s;
    }
    double total = 0.0;
    for (int t = 0; t < MAX_TEAMS; t++)
        total += partial[t];
    printf("teams flag=%d total=%.6g a[17]=%.6g\n", teams_seen, total, a[17]);

    static int hist[N];
    long count = 0;
#pragma omp target teams map(tofrom : hist, count) reduction(+ : count)
    {
#pragma omp distribute
        for (int blk = 0; blk < 64; blk++) {
            int lo = blk * (N / 64);
#pragma omp parallel for
            for (int i = lo; i < lo + N / 64; i++)
                hist[i] = (i * 7 + blk) % 5;
            count += 1; /* one per block, whichever team ran it */
        }
    }
    long hs = 0;
    for (int i = 0; i < N; i++)
        hs += hist[i];
    printf("distribute blocks=%ld hist sum=%ld\n", count, hs);

    int flags[3] = {0};
#pragma omp target map(tofrom : flags)
    {
        flags[0] = 1; /* sequential target region, one thread */
#pragma omp parallel num_threads(4)
        {
#pragma omp single
            flags[1] = omp_get_num_threads() >= 1;
#pragma omp atomic
            flags[2] += 1;
        }
    }
    printf("target+parallel: %d %d threads ran>=1: %d\n", flags[0], flags[1], flags[2] >= 1);
    return 0;
}
