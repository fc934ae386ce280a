/* Separate compilation: function pointers to declare-target functions another unit defines.
   Their addresses are taken in this unit's target regions, stored in a device table (once at
   run time, once by a static initializer) and called indirectly. */
#include <stdio.h>

#pragma omp declare target
double square(double x);
double twice(double x);
double (*ops[2])(double);
double (*const fixed[3])(double) = {twice, square, twice};
#pragma omp end declare target

int main(void) {
  double out[8];
#pragma omp target
  {
    ops[0] = square;
    ops[1] = twice;
  }
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < 8; i++) {
    double (*f)(double) = i % 2 ? twice : square;
    out[i] = f(i) + ops[(i / 2) % 2](i + 1) + fixed[i % 3](0.5);
  }
  for (int i = 0; i < 8; i++)
    printf("%g\n", out[i]);
  return 0;
}
