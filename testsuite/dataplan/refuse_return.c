// A return between the kernels would skip the planned exit data: nothing is planned.
#include <stdio.h>

int run(float *a, int n) {
  #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] += 1.0f;
  if (a[0] > 100.0f)
    return 1;
  #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2.0f;
  return 0;
}
