// Schedules as OpenMP 5.2 defines them (11.5.3, 11.6.1), observed per iteration through
// omp_get_thread_num/omp_get_team_num: `static, c` and `dist_schedule(static, c)` hand out
// chunks round-robin, `static` gives each thread one contiguous chunk in thread order,
// `dynamic, c` keeps each chunk of c on one thread, `guided, c` runs chunks of at least c;
// `loop bind(thread)` runs every iteration in each thread, `bind(parallel)`/`bind(teams)`
// share them. Every check is relative to the thread and team counts seen.
#include <omp.h>
#include <stdio.h>

#define N 1000

static int tid[N], nth[N], team[N], nteam[N];

static void report(const char *what, int ok) { printf("%-28s %s\n", what, ok ? "ok" : "WRONG"); }

static int cyclic(const int *w, const int *n, int lo, int c) {
  for (int i = lo; i < N; i++)
    if (w[i] != ((i - lo) / c) % n[i]) return 0;
  return 1;
}

int main(void) {
#pragma omp target parallel for schedule(static, 3) num_threads(8) map(from : tid, nth)
  for (int i = 0; i < N; i++) {
    tid[i] = omp_get_thread_num();
    nth[i] = omp_get_num_threads();
  }
  report("static, 3", cyclic(tid, nth, 0, 3));

#pragma omp target parallel for schedule(static) num_threads(6) map(from : tid, nth)
  for (int i = 0; i < N; i++) {
    tid[i] = omp_get_thread_num();
    nth[i] = omp_get_num_threads();
  }
  int ok = 1, count[1024] = {0};
  for (int i = 0; i < N; i++) {
    count[tid[i]]++;
    if (i > 0 && tid[i] < tid[i - 1]) ok = 0; // one chunk per thread, in thread order
  }
  for (int t = 1; t < nth[0]; t++)
    if (count[t] > count[0] || count[t] < count[0] - 1) ok = 0;
  report("static", ok);

#pragma omp target teams distribute dist_schedule(static, 4) num_teams(5) map(from : team, nteam)
  for (int i = 0; i < N; i++) {
    team[i] = omp_get_team_num();
    nteam[i] = omp_get_num_teams();
  }
  report("dist_schedule(static, 4)", cyclic(team, nteam, 0, 4));

#pragma omp target teams distribute parallel for dist_schedule(static, 16) \
    schedule(static, 2) num_teams(3) thread_limit(4) map(from : tid, nth, team, nteam)
  for (int i = 0; i < N; i++) {
    tid[i] = omp_get_thread_num();
    nth[i] = omp_get_num_threads();
    team[i] = omp_get_team_num();
    nteam[i] = omp_get_num_teams();
  }
  ok = cyclic(team, nteam, 0, 16);
  for (int i = 0; i < N; i++) // within each team's chunk of 16: chunks of 2 round-robin
    if (tid[i] != ((i % 16) / 2) % nth[i]) ok = 0;
  report("distribute + for chunks", ok);

#pragma omp target parallel for schedule(dynamic, 5) num_threads(4) map(from : tid)
  for (int i = 0; i < N; i++) tid[i] = omp_get_thread_num();
  ok = 1;
  for (int i = 0; i < N; i++)
    if (tid[i] != tid[i - i % 5]) ok = 0;
  report("dynamic, 5", ok);

#pragma omp target parallel for schedule(guided, 7) num_threads(4) map(from : tid)
  for (int i = 0; i < N; i++) tid[i] = omp_get_thread_num();
  ok = 1;
  for (int i = 0, run = 1; i < N; i++, run++)
    if (i + 1 < N && tid[i + 1] != tid[i]) {
      if (run < 7) ok = 0; // every chunk but the last has at least 7 iterations
      run = 0;
    }
  report("guided, 7", ok);

  int missing = 0, hits[N] = {0};
#pragma omp target parallel num_threads(4) map(tofrom : missing, hits)
  {
    int mine = 0;
#pragma omp loop bind(thread)
    for (int i = 0; i < N; i++) mine++;
#pragma omp atomic
    missing += N - mine;
#pragma omp loop bind(parallel)
    for (int i = 0; i < N; i++) hits[i]++; // each iteration once: no two writers
  }
  ok = missing == 0;
  for (int i = 0; i < N; i++) ok &= hits[i] == 1;
  report("loop bind(thread|parallel)", ok);

#pragma omp target teams num_teams(3) map(tofrom : hits)
#pragma omp loop bind(teams)
  for (int i = 0; i < N; i++) hits[i]++;
  ok = 1;
  for (int i = 0; i < N; i++) ok &= hits[i] == 2;
  report("loop bind(teams)", ok);
  return 0;
}
