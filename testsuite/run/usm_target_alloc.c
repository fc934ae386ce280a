// `omp_target_alloc` under `requires unified_shared_memory` (OpenMP 5.2 8.2.1: such storage
// is accessible from every device and the host; gcc 12 refuses the requirement:
// usm_target_alloc.expected). The host writes and reads the block itself, target regions
// use it through is_device_ptr, and omp_target_memcpy copies into and out of it.
#include <omp.h>
#include <stdio.h>

#pragma omp requires unified_shared_memory

#define N 1000

int main(void) {
  int dev = omp_get_default_device();
  double *x = omp_target_alloc(N * sizeof(double), dev);
  if (!x) {
    printf("omp_target_alloc failed\n");
    return 1;
  }
  for (int i = 0; i < N; i++)
    x[i] = i; // the host writes device storage
#pragma omp target teams distribute parallel for is_device_ptr(x)
  for (int i = 0; i < N; i++)
    x[i] = 2 * x[i] + 1;
  double s = 0;
  for (int i = 0; i < N; i++)
    s += x[i]; // and reads what the device wrote
  printf("x[0]=%g x[999]=%g sum=%g\n", x[0], x[N - 1], s);

  double y[4] = {0};
  omp_target_memcpy(y, x, sizeof y, 0, 2 * sizeof(double), omp_get_initial_device(), dev);
  printf("memcpy out: %g %g\n", y[0], y[3]);
  double z[2] = {-1, -2};
  omp_target_memcpy(x, z, sizeof z, 0, 0, dev, omp_get_initial_device());
  printf("memcpy in: x[0]=%g x[1]=%g\n", x[0], x[1]);

  int ok = 0;
  x[2] = 42; // a host store the device sees
#pragma omp target map(from: ok) is_device_ptr(x)
  ok = x[0] == -1 && x[1] == -2 && x[2] == 42 && x[3] == 7;
  printf("device sees the host's stores: %d\n", ok);
  omp_target_free(x, dev);
  return 0;
}
