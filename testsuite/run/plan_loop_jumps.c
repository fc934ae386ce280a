// Loops of planned ranges that 'break' or 'continue' past host code. The planner's flow must
// leave such a loop with the state where it jumped: here the host copy of 'x' is stale at the
// 'break' (a kernel wrote it, the host read that refreshes it is skipped), so 'x' is copied
// back after the loop. Likewise a 'continue' that skips a host write ('update to') reaches
// the next kernel with the device copy as the kernel left it.
#include <stdio.h>
#include <stdlib.h>

#define N 256

int main(void) {
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  long *q = malloc(N * sizeof *q);
  double *u = malloc(N * sizeof *u), *v = malloc(N * sizeof *v);
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 1.0;
    q[i] = -1;
  }
  double s = 0;
  for (int it = 0; it < 10; it++) {
#pragma omp target teams distribute parallel for map(tofrom : x[0:N])
    for (int i = 0; i < N; i++)
      x[i] = x[i] * 0.5 + 1.0;
    if (it == 3)
      break;
    s = 0;
    for (int i = 0; i < N; i++)
      s += x[i];
  }
  double t = 0;
  for (int i = 0; i < N; i++)
    t += x[i];
  printf("break: %.6f %.6f\n", s, t);

  int it = 0;
  while (it < 8) {
    it++;
#pragma omp target teams distribute parallel for map(tofrom : y[0:N])
    for (int i = 0; i < N; i++)
      y[i] = y[i] * 1.5;
    if (it % 3 == 0)
      continue;
    for (int i = 0; i < N; i += 7)
      y[i] = y[i] - 1.0;
  }
  t = 0;
  for (int i = 0; i < N; i++)
    t += y[i];
  printf("continue: %.6f\n", t);

  // 'q' is written whole by the first kernel of every iteration: allocated, never copied in
  long pq = 0;
  for (it = 0; it < 20; it++) {
#pragma omp target teams distribute parallel for map(tofrom : q[0:N])
    for (int i = 0; i < N; i++)
      q[i] = i + it;
    pq = 0;
#pragma omp target teams distribute parallel for reduction(+ : pq) map(tofrom : q[0:N])
    for (int i = 0; i < N; i++)
      pq += q[i] % 5;
    if (pq > 520)
      break;
  }
  printf("alloc: %d %ld\n", it, pq);

  // kernels read 'u' and 'v' only at 1..N-2, written there first (by a kernel, by the host):
  // allocated; 'q' is read at 0..N-1: copied in
  for (int i = 0; i < N; i++)
    q[i] = i % 17;
  long r = 0;
  for (it = 0; it < 6; it++) {
    for (int i = 1; i < N; i++)
      v[i] = it + i % 3;
#pragma omp target teams distribute parallel for map(to : q[0:N]) map(tofrom : u[0:N])
    for (int i = 1; i < N - 1; i++)
      u[i] = q[i - 1] - 2 * q[i] + q[i + 1] + 0.25;
    r = 0;
#pragma omp target teams distribute parallel for reduction(+ : r) map(to : u[0:N], v[0:N], q[0:N])
    for (int i = 1; i < N - 1; i++)
      r += (long)(u[i] * v[i] + q[i - 1] + q[i + 1]);
  }
  printf("partial: %ld\n", r);
  free(u);
  free(v);
  free(x);
  free(y);
  free(q);
  return 0;
}
