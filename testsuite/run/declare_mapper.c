#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *p;
} vec;

struct pair {
  vec a, b;
  double scale;
};

/* the default mapper of vec: the struct and its elements */
#pragma omp declare mapper(vec v) map(v, v.p[0:v.n])
/* a named mapper that only brings the elements in */
#pragma omp declare mapper(in_only: vec v) map(to: v, v.p[0:v.n])

static vec make(int n, double first) {
  vec v = {n, malloc(n * sizeof(double))};
  for (int i = 0; i < n; i++) v.p[i] = first + i;
  return v;
}

int main(void) {
  vec x = make(8, 1.0), y = make(8, 100.0), z = make(8, 0.0);
  /* explicit maps: the default mapper attaches x.p; the named one brings y's elements */
#pragma omp target teams distribute parallel for map(tofrom: x) map(mapper(in_only), tofrom: y)
  for (int i = 0; i < x.n; i++) x.p[i] += y.p[i];
  printf("x: %.1f %.1f y: %.1f %.1f\n", x.p[0], x.p[7], y.p[0], y.p[7]);
  /* implicit map: the default mapper too */
#pragma omp target
  for (int i = 0; i < z.n; i++) z.p[i] = 2.0 * i;
  printf("z: %.1f %.1f\n", z.p[1], z.p[7]);
  /* a map type decays: to + tofrom -> to, so the device's writes stay there */
#pragma omp target data map(to: x)
  {
#pragma omp target
    for (int i = 0; i < x.n; i++) x.p[i] = 0.0;
#pragma omp target update from(x)
    printf("after update: %.1f\n", x.p[3]);
  }
  free(x.p);
  free(y.p);
  free(z.p);
  return 0;
}
