// `affinity` on `task` (OpenMP 5.0; a hint, so only where tasks run may change): a list of
// sections, an `iterator(...)` modifier over the elements a task touches, on host tasks and
// on tasks in a target region; a user function named `iterator` called in clauses of the
// same pragmas (`iterator(` followed by a call's arguments is no modifier).
#include <stdio.h>

#define N 64
#define T 8

static int iterator(int x) { return x + 1; }

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = i, b[i] = 0;
  const int chunk = N / T;
  // host tasks: each doubles its chunk
#pragma omp parallel num_threads(3)
#pragma omp single
  for (int t = 0; t < T; t++) {
#pragma omp task affinity(iterator(i = t * chunk:(t + 1) * chunk): a[i]) firstprivate(t) \
    shared(a) priority(iterator(0))
    for (int i = t * chunk; i < (t + 1) * chunk; i++)
      a[i] *= 2;
  }
  long host_sum = 0;
  for (int i = 0; i < N; i++)
    host_sum += (long)a[i] * (i % 7 + 1);
  printf("host tasks: %ld\n", host_sum);

  // tasks in a target region: section and iterator forms, two iterators
#pragma omp target map(to: a) map(from: b)
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (int t = 0; t < T; t++) {
#pragma omp task affinity(a[t * chunk:chunk], b[t * chunk:chunk]) firstprivate(t) shared(a, b)
      for (int i = t * chunk; i < (t + 1) * chunk; i++)
        b[i] = a[i] + iterator(t);
    }
#pragma omp taskwait
#pragma omp task affinity(iterator(int i = 0:T, j = 0:2): b[i * chunk + j]) shared(b)
    for (int t = 0; t < T; t++)
      b[t * chunk] += 1000;
  }
  long dev_sum = 0;
  for (int i = 0; i < N; i++)
    dev_sum += (long)b[i] * (i % 5 + 1);
  printf("target tasks: %ld %d %d\n", dev_sum, b[0], b[N - 1]);
#pragma omp target map(tofrom: dev_sum) if(iterator(-1))
  dev_sum = -dev_sum;
  printf("if(iterator(-1)) kept on the host: %ld\n", dev_sum);
  return 0;
}
