// Callees with target regions that cannot be planned inside their caller: an argument that
// is not a plain pointer variable, and a return before the end. Each stays planned on its
// own, and the caller leaves the data those calls touch as written.
#include <stdio.h>
#define N 32

static void shifted(double *p) {
  #pragma omp target teams distribute parallel for map(tofrom: p[0:N - 1])
  for (int i = 0; i < N - 1; i++)
    p[i] += 1.0;
}

static void early(double *q, int t) {
  if (t < 0)
    return;
  #pragma omp target teams distribute parallel for map(tofrom: q[0:N])
  for (int i = 0; i < N; i++)
    q[i] *= 0.5;
}

static void boundary(double *r, int t) {
  r[0] = t;
}

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = b[i] = i;
  for (int t = 0; t < 4; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: a[0:N], b[0:N])
    for (int i = 0; i < N; i++)
      b[i] += a[i];
    shifted(a + 1);
    early(b, t);
    boundary(a, t);
  }
  printf("%.1f %.1f\n", a[N / 2], b[N / 2]);
  return 0;
}
