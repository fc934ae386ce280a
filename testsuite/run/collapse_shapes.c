/* collapse(2)/(3) nests of unusual shapes: empty inner loops, single-iteration levels,
 * negative and non-unit steps, unsigned and char indices, more threads than iterations and
 * far fewer (each thread walks many iterations, carrying its indices across levels), and
 * `continue` in the body. Every (i, j, k) must be visited exactly once. */
#include <stdio.h>

#define NI 7
#define NJ 5
#define NK 3

static int visits[NI][NJ][NK];

static void reset(void) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        visits[i][j][k] = 0;
}

static void report(const char *what) {
  long sum = 0, weighted = 0, bad = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) {
        sum += visits[i][j][k];
        weighted += (long)visits[i][j][k] * (i * 100 + j * 10 + k);
        bad += visits[i][j][k] > 1;
      }
  printf("%-28s visits %ld weighted %ld repeated %ld\n", what, sum, weighted, bad);
}

int main(void) {
  int n0 = 0, n1 = 1;

  reset();
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : visits) \
    num_teams(2) thread_limit(3)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        visits[i][j][k]++;
  report("3 levels, 6 threads");

  reset();
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : visits) \
    num_teams(4) thread_limit(64)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        visits[i][j][k]++;
  report("3 levels, 256 threads");

  reset();
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : visits) \
    num_teams(1) thread_limit(4)
  for (int i = NI - 1; i >= 0; i -= 2)
    for (unsigned j = 1; j < NJ; j += 3)
      visits[i][j][0]++;
  report("down by 2, unsigned by 3");

  reset();
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : visits) \
    num_teams(3) thread_limit(2)
  for (signed char i = 0; i < NI; i++)
    for (int j = 0; j < n0; j++)
      visits[i][j][0]++;
  report("empty inner loop");

  reset();
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : visits) \
    num_teams(2) thread_limit(5)
  for (int i = 0; i < NI; i++)
    for (int j = 2; j < 2 + n1; j++)
      for (int k = NK - 1; k >= 0; k--) {
        if ((i + k) % 3 == 0)
          continue;
        visits[i][j][k]++;
      }
  report("one-trip middle, continue");

  reset();
#pragma omp target parallel for collapse(2) map(tofrom : visits) num_threads(3)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      visits[i][j][i % NK] += 1;
  report("target parallel for");

  reset();
#pragma omp target teams distribute collapse(2) map(tofrom : visits) num_teams(4)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      visits[i][j][j % NK] += 1;
  report("distribute only");

  int li = -1, lj = -1;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(li, lj) \
    map(tofrom : li, lj) num_teams(2) thread_limit(3)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      li = i;
      lj = j;
    }
  printf("lastprivate i %d j %d\n", li, lj);
  return 0;
}
