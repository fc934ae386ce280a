// OpenMP memory-management routines in target regions: omp_alloc/omp_aligned_alloc/
// omp_calloc/omp_aligned_calloc/omp_realloc/omp_free with predefined allocators, per thread
// and per team, and omp_get_default_allocator. Only facts true on device and host print.
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#define N 64

int main(void) {
  int r[12] = {0};
  long sums[4] = {0};
  #pragma omp target map(tofrom: r)
  {
    r[0] = omp_alloc(0, omp_default_mem_alloc) == NULL;
    int *p = omp_alloc(N * sizeof(int), omp_null_allocator);
    for (int i = 0; i < N; i++) p[i] = i;
    p = omp_realloc(p, 2 * N * sizeof(int), omp_default_mem_alloc, omp_default_mem_alloc);
    for (int i = N; i < 2 * N; i++) p[i] = i;
    long s = 0;
    for (int i = 0; i < 2 * N; i++) s += p[i];
    r[1] = s == (2 * N - 1) * N;
    r[2] = omp_realloc(p, 0, omp_default_mem_alloc, omp_default_mem_alloc) == NULL;
    double *q = omp_aligned_alloc(128, 10 * sizeof(double), omp_large_cap_mem_alloc);
    r[3] = q != NULL && (uintptr_t)q % 128 == 0;
    omp_free(q, omp_large_cap_mem_alloc);
    long *z = omp_calloc(N, sizeof(long), omp_high_bw_mem_alloc);
    long *w = omp_aligned_calloc(256, N, sizeof(long), omp_low_lat_mem_alloc);
    int zero = z != NULL && w != NULL && (uintptr_t)w % 256 == 0;
    for (int i = 0; zero && i < N; i++) zero = z[i] == 0 && w[i] == 0;
    r[4] = zero;
    omp_free(z, omp_high_bw_mem_alloc);
    omp_free(w, omp_low_lat_mem_alloc);
    r[5] = omp_get_default_allocator() == omp_default_mem_alloc;
    r[6] = omp_calloc(0, 8, omp_default_mem_alloc) == NULL;
    omp_free(NULL, omp_default_mem_alloc);
  }
  // every thread of every team allocates its own scratch
  #pragma omp target teams distribute parallel for map(tofrom: sums) num_teams(4)
  for (int t = 0; t < 4 * N; t++) {
    int *scratch = omp_alloc(8 * sizeof(int), omp_thread_mem_alloc);
    long s = 0;
    if (scratch) {
      for (int k = 0; k < 8; k++) scratch[k] = t + k;
      for (int k = 0; k < 8; k++) s += scratch[k];
      omp_free(scratch, omp_thread_mem_alloc);
    }
    #pragma omp atomic
    sums[t % 4] += s;
  }
  for (int i = 0; i < 7; i++) printf("%d ", r[i]);
  printf("\n%ld %ld %ld %ld\n", sums[0], sums[1], sums[2], sums[3]);
  return 0;
}
