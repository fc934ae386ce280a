// OpenMP 5.1 `num_teams(lower-bound : upper-bound)`: the league size lies between the bounds;
// a `teams` reduction whose body is one statement per team.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int lo = 2, hi = 4;
  int teams = 0, sum = 0;
#pragma omp target teams num_teams(lo : hi) map(tofrom : teams) reduction(+ : sum)
  {
    if (omp_get_team_num() == 0)
      teams = omp_get_num_teams();
    sum += 1;
  }
  printf("league within [%d, %d]: %d; one per team: %d\n", lo, hi, teams >= lo && teams <= hi,
         sum == teams);
  int x = 0;
#pragma omp target teams num_teams(3 : 3) reduction(+ : x)
  x += omp_get_team_num() + 1;
  printf("x = %d\n", x);
  long s = 0;
#pragma omp target teams distribute parallel for num_teams(1 : 8) thread_limit(64) \
    reduction(+ : s)
  for (int i = 0; i < 1000; i++)
    s += i;
  printf("s = %ld\n", s);
  return 0;
}
