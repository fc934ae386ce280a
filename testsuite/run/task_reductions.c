#include <stdio.h>

/* Task reductions in target regions: `taskgroup task_reduction` with tasks and a taskloop
   taking part (`in_reduction`), a parallel region's `reduction(task, ...)` fed by tasks made
   in `single`, and a taskgroup inside `single`. */
int main(void) {
  long s = 0, t = 0, s2 = 0, u = 0;
  int r = 0;
#pragma omp target map(tofrom: s)
  {
#pragma omp taskgroup task_reduction(+: s)
    {
      for (int i = 1; i <= 10; i++) {
#pragma omp task in_reduction(+: s)
        s += i;
      }
    }
  }
#pragma omp target map(tofrom: s2)
  {
#pragma omp taskgroup task_reduction(+: s2)
    {
#pragma omp taskloop in_reduction(+: s2)
      for (int i = 0; i < 100; i++) s2 += i;
    }
  }
#pragma omp target map(tofrom: t)
  {
#pragma omp parallel num_threads(4) reduction(task, +: t)
    {
#pragma omp single
      for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(+: t)
        t += i;
      }
    }
  }
#pragma omp target map(tofrom: r)
  {
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskgroup task_reduction(max: r)
    for (int i = 0; i < 7; i++) {
#pragma omp task in_reduction(max: r)
      r = r > i * 3 ? r : i * 3;
    }
  }
  /* a target task taking part in a host taskgroup's reduction */
#pragma omp taskgroup task_reduction(+: u)
  {
#pragma omp target in_reduction(+: u)
    for (int i = 0; i < 50; i++) u += 2;
#pragma omp task in_reduction(+: u)
    u += 1000;
  }
  printf("s %ld s2 %ld t %ld r %d u %ld\n", s, s2, t, r, u);
  return 0;
}
