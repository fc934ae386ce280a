/* `target teams` whose whole body is a `parallel`: every team's threads run it (SPMD). The
 * team-level firstprivate copy, worksharing `for` with a barrier between loops, `single`,
 * `critical`, `barrier`, nested reductions on teams and parallel; and the same shape with
 * `num_threads` (sized at run time: generic mode). Output is the same for any number of
 * teams and threads. */
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  static double a[N], b[N];
  int base = 7, bad = 0;
  double maxv = 0;
#pragma omp target teams num_teams(3) thread_limit(64) firstprivate(base) \
    map(tofrom : a, b, bad) reduction(max : maxv)
#pragma omp parallel reduction(max : maxv)
  {
    if (omp_get_thread_num() >= omp_get_num_threads() ||
        omp_get_team_num() >= omp_get_num_teams() || base != 7) {
#pragma omp atomic
      bad++;
    }
#pragma omp for
    for (int i = 0; i < N; i++)
      a[i] = base + 0.5 * i;
#pragma omp for
    for (int i = 0; i < N; i++) {
      b[i] = a[N - 1 - i] * 2;
      if (b[i] > maxv)
        maxv = b[i];
    }
#pragma omp single
    {
      if (b[0] != 2 * (base + 0.5 * (N - 1))) {
#pragma omp atomic
        bad++;
      }
    }
  }
  printf("max %.1f bad %d b[10] %.1f\n", maxv, bad, b[10]);

  int seen = 0, ok = 1;
#pragma omp target teams num_teams(2) thread_limit(32) map(tofrom : seen, ok)
#pragma omp parallel
  {
    int mine = omp_get_thread_num();
#pragma omp critical
    {
      if (seen < 1)
        seen = 1;
    }
#pragma omp barrier
    if (mine != omp_get_thread_num() || seen != 1)
      ok = 0;
  }
  printf("critical/barrier seen %d ok %d\n", seen, ok);

  int teams_ok = 1;
#pragma omp target teams num_teams(2) map(tofrom : teams_ok)
#pragma omp parallel num_threads(4)
  {
    if (omp_get_num_threads() > 4)
      teams_ok = 0;
  }
  printf("num_threads bound ok %d\n", teams_ok);
  return 0;
}
