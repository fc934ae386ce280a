// init / compute / finish functions sharing file-scope pointers
#include <stdlib.h>
static double *u, *v;
static int len;
void setup(int n) {
  len = n;
  u = malloc(n * sizeof(double));
  v = malloc(n * sizeof(double));
}
void compute(int n) {
#pragma omp target teams distribute parallel for map(to: u[0:n]) map(from: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] = u[i] * u[i];
}
void finish(void) {
  free(u);
  free(v);
}
