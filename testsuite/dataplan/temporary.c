// A device-only temporary: written whole by one kernel, read by the next, never read by the
// host: allocated and released, never copied.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 512;
  double *a = malloc(n * sizeof(double));
  double *tmp = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i;
  for (int k = 0; k < 4; k++) {
    #pragma omp target teams distribute parallel for map(to: a[0:n]) map(from: tmp[0:n])
    for (int i = 0; i < n; i++)
      tmp[i] = a[i] * a[i];
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: tmp[0:n])
    for (int i = 0; i < n; i++)
      a[i] = tmp[i] / (a[i] + 1.0);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  printf("%.6f\n", s);
  free(a);
  free(tmp);
  return 0;
}
