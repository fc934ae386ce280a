// `requires unified_address` (gcc 12: "sorry, unimplemented", so requires_unified_address.expected
// holds the output): device pointers are plain addresses. A pointer from omp_target_alloc used in
// a region without is_device_ptr keeps its value (nothing maps it); use_device_ptr results and
// omp_get_mapped_ptr results take pointer arithmetic; device pointers stored in mapped data work
// on the device.
#include <omp.h>
#include <stdio.h>

#pragma omp requires unified_address

#define N 64

int main(void) {
  int dev = omp_get_default_device();
  int host = omp_get_initial_device();
  int *d = omp_target_alloc(N * sizeof(int), dev);
  if (!d) {
    printf("omp_target_alloc failed\n");
    return 1;
  }
  // No is_device_ptr: `d` is not mapped, so it keeps its value in the region.
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    d[i] = 3 * i;
  int h[N];
  omp_target_memcpy(h, d, N * sizeof(int), 0, 0, host, dev);
  long sum = 0;
  for (int i = 0; i < N; i++)
    sum += h[i];
  printf("target_alloc without is_device_ptr: sum=%ld h[5]=%d\n", sum, h[5]);

  // use_device_ptr: arithmetic on the device address names the same elements.
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target data map(tofrom: a)
  {
    int *p = a;
#pragma omp target data use_device_ptr(p)
    {
      int *q = p + 10; // a device address, 10 elements in
      omp_target_memcpy(q, d + 10, 4 * sizeof(int), 0, 0, dev, dev);
      int *mid = (int *)omp_get_mapped_ptr(&a[20], dev);
      printf("mapped ptr arithmetic: %d\n", mid == p + 20);
    }
    // Device pointers carried inside mapped data: a table of row starts.
    int *rows[4];
    for (int r = 0; r < 4; r++)
      rows[r] = (int *)omp_get_mapped_ptr(&a[16 * r], dev);
#pragma omp target map(to: rows)
    for (int r = 0; r < 4; r++)
      rows[r][15] = -r;
  }
  printf("a[9..14]:");
  for (int i = 9; i < 15; i++)
    printf(" %d", a[i]);
  printf("\nrow ends:");
  for (int r = 0; r < 4; r++)
    printf(" %d", a[16 * r + 15]);
  printf("\n");
  omp_target_free(d, dev);
  return 0;
}
