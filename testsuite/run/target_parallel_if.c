// `parallel num_threads(4) if(c)` as the whole body of a `target` region, and the combined
// `target parallel if(parallel: c)` forms: a true `c` gives the team `num_threads` asks for,
// a false one a team of one (OpenMP 5.2 10.1.1), on the device and on the host alike. The
// condition is evaluated once per region; it reads only firstprivate scalars.
#include <omp.h>
#include <stdio.h>

#define N 100

int main(void) {
  for (int c = 0; c < 2; c++) {
    int nt = 0, ids = 0;
#pragma omp target map(tofrom: nt, ids)
#pragma omp parallel num_threads(4) if(c) reduction(max: nt) reduction(+: ids)
    {
      nt = omp_get_num_threads();
      ids += omp_get_thread_num();
    }
    printf("target { parallel if(%d) }: %d threads, ids sum to %d\n", c, nt, ids);

    int big = c ? 1000 : 10;
    nt = 0, ids = 0;
#pragma omp target parallel num_threads(4) if(parallel: big > 100) map(tofrom: nt, ids) \
    reduction(max: nt) reduction(+: ids)
    {
      nt = omp_get_num_threads();
      ids += omp_get_thread_num();
    }
    printf("target parallel if(parallel: %d > 100): %d threads, ids sum to %d\n", big, nt, ids);

    int a[N], team = 0;
    long s = 0;
#pragma omp target parallel for num_threads(4) if(parallel: c) map(from: a) \
    map(tofrom: team) reduction(max: team) reduction(+: s)
    for (int i = 0; i < N; i++) {
      a[i] = 2 * i;
      s += i;
      team = omp_get_num_threads();
    }
    printf("target parallel for if(parallel: %d): team of %d, a[99]=%d s=%ld\n", c, team, a[99],
           s);

    /* a condition read through a pointer: ompcc runs a team of one whatever it is (W0913),
       gcc the team it asks for; the loop's results are the same */
    int *pc = &c;
    s = 0;
#pragma omp target parallel for num_threads(4) if(parallel: *pc) map(from: a) reduction(+: s)
    for (int i = 0; i < N; i++) {
      a[i] = 3 * i;
      s += i * c;
    }
    printf("if(parallel: *pc) with *pc=%d: a[99]=%d s=%ld\n", c, a[99], s);
  }
  return 0;
}
