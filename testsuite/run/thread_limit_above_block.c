/* thread_limit and num_threads are upper bounds: a limit above what one GPU block can hold
 * (1024 threads) runs with fewer threads instead of failing the launch. */
#include <omp.h>
#include <stdio.h>

#define N 5000

int main(void) {
  static double a[N];
  int team_threads = 0;
#pragma omp target teams distribute parallel for thread_limit(2048) map(tofrom : a)
  for (int i = 0; i < N; i++)
    a[i] = i * 0.5;

#pragma omp target parallel num_threads(1500) map(tofrom : team_threads)
  {
#pragma omp master
    team_threads = omp_get_num_threads();
  }

  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i];
  printf("sum %.1f\n", s);
  printf("team within limits: %d\n", team_threads >= 1 && team_threads <= 1500);
  return 0;
}
