/* Separate compilation: the kernel calls a declare-target function of another unit. */
#include <stdio.h>

#pragma omp declare target
double weight(int i);
#pragma omp end declare target

int main(void) {
  double w[100];
#pragma omp target teams distribute parallel for map(from: w)
  for (int i = 0; i < 100; i++)
    w[i] = weight(i);
  double s = 0;
  for (int i = 0; i < 100; i++)
    s += w[i];
  printf("weights %g %g %g\n", s, w[1], w[99]);
  return 0;
}
