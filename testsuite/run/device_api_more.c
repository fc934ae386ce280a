// The OpenMP device API beyond thread and team numbers: ICV set/get round trips, their
// scoping (tasks and parallel regions get their own copies and inherit the parent's), the
// routines without device state, and schedule(runtime)/schedule(auto) loops. Only facts
// that hold on the device and on the host are printed.
#include <omp.h>
#include <stdio.h>

#define N 96

static int sched_is(omp_sched_t kind, int chunk) {
  omp_sched_t k;
  int c;
  omp_get_schedule(&k, &c);
  return k == kind && c == chunk;
}

#pragma omp declare target
static void set_guided(int chunk) { omp_set_schedule(omp_sched_guided, chunk); }
#pragma omp end declare target

int main(void) {
  int r[32] = {0};
  int a[N], b[N];
  #pragma omp target map(tofrom: r)
  {
    int old_levels = omp_get_max_active_levels();
    int dd = omp_get_default_device();
    r[0] = dd == omp_get_initial_device() || dd >= 0;
    omp_set_default_device(3);
    r[1] = omp_get_default_device() == 3;
    omp_set_default_device(dd);
    omp_set_schedule(omp_sched_dynamic, 3);
    r[2] = sched_is(omp_sched_dynamic, 3);
    omp_set_schedule(omp_sched_static, 0);
    r[3] = sched_is(omp_sched_static, 0);
    omp_set_schedule(omp_sched_guided, -4);  // below 1: the default chunk, 1
    r[4] = sched_is(omp_sched_guided, 1);
    omp_set_schedule(omp_sched_dynamic | omp_sched_monotonic, 5);
    r[5] = sched_is(omp_sched_dynamic | omp_sched_monotonic, 5);
    omp_set_num_threads(2);
    r[6] = omp_get_max_threads() == 2;
    omp_set_dynamic(0);
    r[7] = omp_get_dynamic() == 0;
    omp_set_max_active_levels(0);
    r[8] = omp_get_max_active_levels() == 0;
    int team = 0;
    #pragma omp parallel
    #pragma omp atomic
    team++;
    r[9] = team == 1;  // no active level allowed: a team of one
    omp_set_max_active_levels(1);
    r[10] = omp_get_max_active_levels() == 1;
    omp_set_nested(1);
    r[11] = omp_get_max_active_levels() >= 1 &&
            omp_get_max_active_levels() <= omp_get_supported_active_levels();
    omp_set_max_active_levels(old_levels);
    // a task's and a parallel region's changes end with them
    set_guided(7);
    #pragma omp task shared(r)
    {
      r[12] = sched_is(omp_sched_guided, 7);
      omp_set_schedule(omp_sched_static, 2);
      r[13] = sched_is(omp_sched_static, 2);
    }
    r[14] = sched_is(omp_sched_guided, 7);
    int inherited = 0, threads = 0;
    #pragma omp parallel
    {
      int ok = sched_is(omp_sched_guided, 7) && omp_get_default_device() == dd &&
               omp_get_level() == 1 && omp_get_ancestor_thread_num(0) == 0 &&
               omp_get_team_size(0) == 1 && omp_get_team_size(1) == omp_get_num_threads() &&
               omp_get_ancestor_thread_num(1) == omp_get_thread_num() &&
               omp_get_ancestor_thread_num(2) == -1 && omp_get_team_size(-1) == -1;
      omp_set_schedule(omp_sched_dynamic, 9);
      #pragma omp atomic
      inherited += ok;
      #pragma omp atomic
      threads++;
    }
    r[15] = inherited == threads;
    r[16] = sched_is(omp_sched_guided, 7);
    // final tasks and their children
    r[17] = omp_in_final() == 0;
    #pragma omp task final(1) shared(r)
    {
      r[18] = omp_in_final();
      #pragma omp task shared(r)
      r[19] = omp_in_final();
    }
    #pragma omp task final(0) shared(r)
    r[20] = omp_in_final() == 0;
    // device-wide ICVs
    omp_set_num_teams(4), omp_set_teams_thread_limit(8);
    r[21] = omp_get_max_teams() == 4 && omp_get_teams_thread_limit() == 8;
    // routines without state on the device
    r[22] = omp_get_supported_active_levels() >= 1 && omp_get_num_procs() >= 1 &&
            omp_get_max_task_priority() >= 0 && omp_get_cancellation() == 0;
    r[23] = omp_get_num_places() >= 0 && omp_get_place_num() >= -1 &&
            omp_get_partition_num_places() >= 0 && omp_get_place_num_procs(-1) == 0 &&
            (int)omp_get_proc_bind() >= 0;
  }
  for (int i = 0; i < N; i++) b[i] = 3 * i;
  #pragma omp target teams distribute parallel for schedule(runtime) map(from: a) map(to: b)
  for (int i = 0; i < N; i++) a[i] = b[i] + 1;
  long s = 0, t = 0;
  for (int i = 0; i < N; i++) s += a[i];
  #pragma omp target parallel for schedule(auto) map(tofrom: a)
  for (int i = 0; i < N; i++) a[i] -= 1;
  #pragma omp target map(tofrom: a)
  {
    omp_set_schedule(omp_sched_dynamic, 4);
    #pragma omp parallel for schedule(runtime)
    for (int i = 0; i < N; i++) a[i] *= 2;
  }
  for (int i = 0; i < N; i++) t += a[i];
  for (int i = 0; i < 24; i++) printf("%d%s", r[i], i % 12 == 11 ? "\n" : " ");
  printf("runtime %ld auto+runtime %ld\n", s, t);
  return 0;
}
