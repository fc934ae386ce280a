// Allocators in device code (OpenMP 5.2 18.13): omp_init_allocator on a predefined memory
// space with an alignment and a fallback trait, omp_alloc/omp_calloc/omp_aligned_alloc from
// it (aligned as asked), omp_destroy_allocator; an allocator with a trait the device cannot
// honour may be omp_null_allocator; the `allocate` clause with predefined allocators on
// private copies of device loops.
#include <omp.h>
#include <stdio.h>

#define N 64

int main(void) {
  long ok[6] = {0, 0, 0, 0, 0, 0};
  double sum = 0;
#pragma omp target map(tofrom : ok, sum)
  {
    omp_alloctrait_t tr[2] = {{omp_atk_alignment, 256}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, tr);
    double *p = (double *)omp_alloc(N * sizeof(double), a);
    ok[0] = a != omp_null_allocator && p != 0 && (unsigned long)p % 256 == 0;
    for (int i = 0; i < N; i++) p[i] = i * 0.5;
    int *q = (int *)omp_calloc(N, sizeof(int), a);
    ok[1] = q != 0 && (unsigned long)q % 256 == 0;
    for (int i = 0; i < N; i++) ok[1] &= q[i] == 0;
    char *r = (char *)omp_aligned_alloc(1024, 100, a);
    ok[2] = r != 0 && (unsigned long)r % 1024 == 0;
    for (int i = 0; i < N; i++) sum += p[i];
    omp_free(r, a);
    omp_free(q, a);
    omp_free(p, a);
    omp_destroy_allocator(a);

    omp_alloctrait_t small[1] = {{omp_atk_alignment, 8}};
    omp_allocator_handle_t c = omp_init_allocator(omp_low_lat_mem_space, 1, small);
    long *v = (long *)omp_alloc(sizeof(long), c);
    ok[3] = c != omp_null_allocator && v != 0;
    if (v) *v = 41;
    ok[4] = v != 0 && *v + 1 == 42;
    omp_free(v, c);
    omp_destroy_allocator(c);

    // a pool size: either an allocator or omp_null_allocator, never a wrong one
    omp_alloctrait_t pool[1] = {{omp_atk_pool_size, 4096}};
    omp_allocator_handle_t b = omp_init_allocator(omp_default_mem_space, 1, pool);
    long *w = (long *)omp_alloc(sizeof(long), b);
    ok[5] = b == omp_null_allocator || w != 0;
    omp_free(w, b);
    if (b != omp_null_allocator) omp_destroy_allocator(b);
  }
  printf("init_allocator: %ld %ld %ld %ld %ld %ld sum=%.1f\n", ok[0], ok[1], ok[2], ok[3], ok[4],
         ok[5], sum);

  int t[4];
  long total = 0;
#pragma omp target teams distribute parallel for private(t) allocate(omp_low_lat_mem_alloc : t) \
    reduction(+ : total)
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 4; k++) t[k] = i + k;
    total += t[0] + t[3];
  }
  printf("allocate clause: %ld\n", total);
  return 0;
}
