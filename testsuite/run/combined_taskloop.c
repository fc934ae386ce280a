/* The combined taskloop constructs of OpenMP 5.1/5.2 in target regions: `master taskloop`,
 * `masked taskloop`, `parallel master taskloop`, `parallel masked taskloop` and their `simd`
 * forms, with the clauses distributed to the leaves as OpenMP 5.2 17.2 says (reduction and
 * firstprivate/lastprivate to the taskloop, shared on the parallel; `if` with and without
 * directive-name modifiers; num_threads, filter, grainsize, num_tasks, nogroup,
 * in_reduction, default(none)). */
#include <omp.h>
#include <stdio.h>

#define N 200

int main(void) {
  long s1 = 0, s2 = 0, s3 = 0, s4 = 1, s5 = 0, s6 = 0, s7 = 0, s8 = 0;
  int a[N];
  for (int i = 0; i < N; i++) a[i] = (i * 37) % 101;
#pragma omp target map(to: a) map(tofrom: s1, s2, s3, s4)
  {
#pragma omp parallel num_threads(4)
    {
#pragma omp master taskloop reduction(+: s1) grainsize(7)
      for (int i = 0; i < N; i++) s1 += a[i];
#pragma omp masked taskloop reduction(max: s2) filter(omp_get_num_threads() - 1) num_tasks(5)
      for (int i = 0; i < N; i++) s2 = a[i] * 3 > s2 ? a[i] * 3 : s2;
    }
#pragma omp parallel master taskloop reduction(+: s3) num_threads(3) grainsize(10)
    for (int i = 0; i < N; i++) s3 += a[i] * i;
#pragma omp parallel masked taskloop reduction(*: s4) filter(omp_get_num_threads() / 2) num_threads(2)
    for (int i = 1; i < 12; i++) s4 *= i % 5 + 1;
  }
  printf("reductions: %ld %ld %ld %ld\n", s1, s2, s3, s4);

  /* firstprivate / lastprivate: the taskloop's; the variables are shared on the parallel */
  int base = 5, last = -1, last2 = -1, last3 = -1, last4 = -1, seen = 0;
#pragma omp target map(tofrom: last, last2, last3, last4, seen)
  {
#pragma omp parallel num_threads(2)
#pragma omp master taskloop firstprivate(base) lastprivate(last) num_tasks(1)
    for (int i = 0; i < 10; i++) {
      base += i; /* each task's own copy */
      last = base * 100 + i;
    }
#pragma omp parallel master taskloop firstprivate(base) lastprivate(last2) num_threads(4)
    for (int i = 0; i < 17; i++) last2 = base + 2 * i;
#pragma omp parallel masked taskloop lastprivate(last3) firstprivate(base) filter(0)
    for (int i = 0; i < 9; i++) last3 = i * base;
    /* the same variable firstprivate and lastprivate */
    last4 = 3;
#pragma omp parallel master taskloop firstprivate(last4) lastprivate(last4) grainsize(100)
    for (int i = 0; i < 5; i++) last4 += i;
    seen = base;
  }
  printf("first/last: %d %d %d %d base %d\n", last, last2, last3, last4, seen);

  /* if: to every leaf that takes it, or the one the modifier names */
  int teams1 = 0, teams2 = 0, teams3 = 0;
#pragma omp target map(tofrom: teams1, teams2, teams3, s5)
  {
#pragma omp parallel master taskloop if(parallel: 0) num_threads(4) reduction(max: teams1)
    for (int i = 0; i < 8; i++) teams1 = omp_get_num_threads() > teams1 ? omp_get_num_threads() : teams1;
#pragma omp parallel masked taskloop if(N > 0) num_threads(1) reduction(max: teams2)
    for (int i = 0; i < 8; i++) teams2 = omp_get_num_threads() > teams2 ? omp_get_num_threads() : teams2;
#pragma omp parallel master taskloop if(taskloop: 0) if(parallel: 0) reduction(+: teams3)
    for (int i = 0; i < 8; i++) teams3 += omp_get_num_threads();
#pragma omp parallel master taskloop default(none) shared(a) reduction(+: s5) num_tasks(3)
    for (int i = 0; i < N; i += 3) s5 += a[i];
  }
  printf("if: %d %d %d, default(none) %ld\n", teams1, teams2, teams3, s5);

  /* simd forms, nogroup with a taskwait, in_reduction into an enclosing task_reduction */
  int b[N], c[N];
  long lastv = 0;
#pragma omp target map(to: a) map(from: b, c) map(tofrom: s6, s7, s8, lastv)
  {
#pragma omp parallel master taskloop simd reduction(+: s6) lastprivate(lastv) num_threads(2)
    for (int i = 0; i < N; i++) {
      s6 += a[i] & 7;
      lastv = a[i] + i;
    }
#pragma omp parallel num_threads(3)
    {
#pragma omp masked taskloop simd filter(omp_get_num_threads() - 1) simdlen(4)
      for (int i = 0; i < N; i++) b[i] = a[i] * 2;
#pragma omp barrier
#pragma omp master taskloop nogroup
      for (int i = 0; i < N; i++) c[i] = a[i] + 1;
#pragma omp master
      {
#pragma omp taskwait
      }
#pragma omp masked
      {
#pragma omp taskgroup task_reduction(+: s7)
        {
#pragma omp masked taskloop in_reduction(+: s7) grainsize(9)
          for (int i = 0; i < N; i++) s7 += b[i];
        }
      }
    }
#pragma omp parallel masked taskloop simd reduction(-: s8) filter(0) collapse(2)
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 10; j++) s8 -= i * j;
  }
  long cb = 0;
  for (int i = 0; i < N; i++) cb += b[i] + c[i];
  printf("simd/nogroup/in_reduction: %ld %ld %ld %ld %ld\n", s6, lastv, s7, s8, cb);
  return 0;
}
