/* Calls only OpenMP API functions: shows which definitions the link order binds. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int threads = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    threads = omp_get_num_threads();
  }
  printf("devices=%d initial=%d threads=%d\n", omp_get_num_devices(), omp_get_initial_device(),
         threads);
  return 0;
}
