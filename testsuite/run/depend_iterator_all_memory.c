// `depend(iterator(...), ...)` (OpenMP 5.0) and the reserved locator `omp_all_memory`
// (OpenMP 5.1) on host tasks, on `target nowait` and on tasks in a target region: a consumer
// over an iterator waits for every producer it names, an iterator with a step, a task with
// `omp_all_memory` after all earlier tasks and before all later ones, such a task as the
// braceless body of an `if` and of a loop, such a task's own `if` condition evaluated once
// for its side effect, `taskwait depend(iterator(...))` (gcc 12 does not
// know omp_all_memory: depend_iterator_all_memory.expected).
#include <stdio.h>

#define N 12

static int slow(int v) { // work that lets a wrongly ordered task overtake
  volatile int s = 0;
  for (int k = 0; k < 20000; k++)
    s += k & 1;
  return v + (s - 10000);
}

int main(void) {
  int a[N], c[N], d[N], sum = 0, x = 0, y = 0, z = 0, w = 0, acc = 0, dv = 0, conds = 0;
  for (int i = 0; i < N; i++)
    a[i] = c[i] = d[i] = 0;
#pragma omp parallel num_threads(3) shared(a, c, d, sum, x, y, z, w, acc, conds)
#pragma omp single
  {
    for (int i = 0; i < N; i++) {
#pragma omp task depend(out: a[i]) firstprivate(i)
      a[i] = slow(i * i);
    }
    // the consumer names every producer's element through the iterator
#pragma omp task depend(iterator(it = 0:N), in: a[it]) depend(out: sum)
    for (int i = 0; i < N; i++)
      sum += a[i];
    // a step: out on the even elements, a consumer of one of them
#pragma omp task depend(iterator(int j = 0:N:2), out: c[j])
    for (int j = 0; j < N; j += 2)
      c[j] = slow(j + 100);
#pragma omp taskwait depend(iterator(k = 0:N:2), in: c[k])
    printf("c[4] %d c[10] %d c[3] %d\n", c[4], c[10], c[3]);
    // omp_all_memory: after x's and y's producers, before x's next reader
#pragma omp task depend(out: x)
    x = slow(1);
#pragma omp task depend(out: y)
    y = slow(2);
#pragma omp task depend(inout: omp_all_memory)
    z = x * 10 + y;
#pragma omp task depend(in: x)
    w = z + x;
    // braceless bodies: each task runs after the one before
    if (N > 0)
#pragma omp task depend(inout: omp_all_memory)
      acc = slow(acc + 5);
    for (int k = 0; k < 4; k++)
#pragma omp task depend(inout: omp_all_memory) firstprivate(k)
      acc = slow(acc * 10 + k);
#pragma omp task depend(inout: omp_all_memory) if(++conds > 0)
    acc = slow(acc + 10 * conds);
#pragma omp task depend(in: acc)
    acc += 1;
  }
  printf("sum %d x %d y %d z %d w %d acc %d conds %d\n", sum, x, y, z, w, acc, conds);

  // target nowait: the runtime orders it after what its clauses name
#pragma omp parallel num_threads(3) shared(a, d)
#pragma omp single
  {
#pragma omp task depend(out: a[3])
    a[3] = slow(1000);
#pragma omp target nowait depend(iterator(it = 0:N), in: a[it]) depend(out: d) \
    map(to: a) map(from: d)
    for (int i = 0; i < N; i++)
      d[i] = a[i] + 1;
    if (N > 1)
#pragma omp target nowait depend(inout: omp_all_memory) map(tofrom: d)
      for (int i = 0; i < N; i++)
        d[i] *= 2;
#pragma omp task depend(in: d)
    d[0] += 7;
#pragma omp taskwait
  }
  for (int i = 0; i < N; i++)
    printf("%d%c", d[i], i + 1 < N ? ' ' : '\n');

  // tasks in a target region (the device runs them in creation order)
#pragma omp target map(tofrom: dv)
  {
    int p = 0, q = 0, r[4] = {0, 0, 0, 0};
#pragma omp task depend(out: p) shared(p)
    p = 5;
#pragma omp task depend(inout: omp_all_memory) shared(p, q)
    q = p + 1;
#pragma omp task depend(iterator(i = 0:4), out: r[i]) shared(r, q)
    for (int i = 0; i < 4; i++)
      r[i] = q * i;
#pragma omp taskwait
    dv = q * 100 + r[3];
  }
  printf("dv %d\n", dv);
  return 0;
}
