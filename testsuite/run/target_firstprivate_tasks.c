#include <stdio.h>

/* A target-firstprivate variable that only tasks nested in `parallel`/`single` write: the
   parallel region shares it, so the tasks share it too and their writes stay. */
int main(void) {
  int x = 1, y = 2, z = 3;
  int r1 = 0, r2 = 0, r3 = 0;
#pragma omp target map(from: r1)
  {
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task
      x += 10;
#pragma omp taskwait
      r1 = x;
    }
  }
#pragma omp target firstprivate(y) map(from: r2)
  {
#pragma omp parallel num_threads(4)
    {
#pragma omp single
      {
        for (int i = 0; i < 5; i++) {
#pragma omp task
          {
#pragma omp atomic
            y += i;
          }
        }
      }
#pragma omp barrier
#pragma omp masked
      r2 = y;
    }
  }
#pragma omp target teams num_teams(1) map(from: r3)
  {
    int before = z;
#pragma omp parallel num_threads(3)
    {
#pragma omp single
      {
#pragma omp task
        z *= 7;
      }
    }
    r3 = z + before;
  }
  printf("%d %d %d (host copies %d %d %d)\n", r1, r2, r3, x, y, z);
  return 0;
}
