/* Data constructs around kernels: target data with a nested region, enter/exit data across
 * functions, update inside a loop, use_device_ptr, if and device clauses, sections a[lo:len],
 * a[lo:], 2-D rows, struct members with pointer attachment. */
#include <stdio.h>
#include <stdlib.h>

struct vec {
  int n;
  double *p;
};

struct pair {
  int a;
  double pad[4];
  int b;
};

static double *buf;

static void setup(int n) {
  buf = malloc(n * sizeof *buf);
  for (int i = 0; i < n; i++)
    buf[i] = i;
#pragma omp target enter data map(to: buf[0:n])
}

static void finish(int n) {
#pragma omp target exit data map(from: buf[0:n])
}

int main(void) {
  int n = 64;
  setup(n);
  double *b = buf;
  for (int step = 0; step < 3; step++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      b[i] = b[i] * 2 + step;
#pragma omp target update from(b[0:4])
    printf("step %d: %g %g %g %g\n", step, b[0], b[1], b[2], b[3]);
  }
  finish(n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += buf[i];
  printf("buf sum %g\n", s);

  double a[100];
  for (int i = 0; i < 100; i++)
    a[i] = -i;
#pragma omp target data map(tofrom: a)
  {
#pragma omp target teams distribute parallel for map(tofrom: a[10:])
    for (int i = 10; i < 100; i++)
      a[i] = a[i] + 1000;
  }
  printf("a %g %g %g\n", a[9], a[10], a[99]);

  double m[8][16];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 16; j++)
      m[i][j] = i * 100 + j;
  int row = 3;
#pragma omp target map(tofrom: m[row][0:16])
  for (int j = 0; j < 16; j++)
    m[row][j] = -m[row][j];
  printf("m %g %g %g\n", m[2][5], m[3][5], m[3][15]);

  struct vec v;
  v.n = 32;
  v.p = malloc(v.n * sizeof *v.p);
  for (int i = 0; i < v.n; i++)
    v.p[i] = i * 0.5;
#pragma omp target map(to: v) map(tofrom: v.p[0:v.n])
  for (int i = 0; i < v.n; i++)
    v.p[i] += 1;
  printf("v %g %g\n", v.p[0], v.p[31]);

  int *q = malloc(16 * sizeof *q);
  for (int i = 0; i < 16; i++)
    q[i] = i;
  int use = 0;
#pragma omp target data map(tofrom: q[0:16]) use_device_ptr(q)
  {
    use = q != 0;
  }
#pragma omp target teams distribute parallel for map(tofrom: q[0:16]) if(use) device(0)
  for (int i = 0; i < 16; i++)
    q[i] *= 3;
  int off = 0;
#pragma omp target map(tofrom: q[0:16]) if(target: off)
  q[0] = 77;
  printf("q %d %d %d\n", q[0], q[1], q[15]);

  struct pair pr = {1, {0}, 2};
  struct pair *pp = &pr;
#pragma omp target map(tofrom: pr.a) map(to: pr.b)
  pr.a = pr.a + pr.b * 10;
#pragma omp target map(tofrom: pp->a)
  pp->a += 5;
  printf("pair %d %d\n", pr.a, pr.b);
  free(q);
  free(v.p);
  free(buf);
  return 0;
}
