// pointers from allocation calls: the size in bytes and in elements
#include <stdlib.h>
double sum(int n) {
  double *a = malloc(n * sizeof(double));
  float *b = calloc(n, sizeof(float));
  int *c = aligned_alloc(64, 16 * n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = 1.0f;
    c[4 * i] = i;
  }
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  free(a);
  free(b);
  free(c);
  return s;
}
