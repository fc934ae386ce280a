/* Separate compilation: extern declare-target globals defined in another unit, read by this
   unit's kernels and moved by `target update` in both units. */
#include <stdio.h>

#pragma omp declare target
extern double scale[4];
extern int hits;
double scaled(int i);
#pragma omp end declare target

void lib_set_scale(double s);
int lib_hits(void);

int main(void) {
  double out[8];
  for (int k = 0; k < 4; k++)
    scale[k] = k + 1;
#pragma omp target update to(scale)
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < 8; i++)
    out[i] = scale[i % 4] * 2 + scaled(i);
  printf("out %g %g %g\n", out[0], out[3], out[7]);
#pragma omp target
  { hits = 40 + (int)scale[1]; }
  printf("hits seen by the other unit %d\n", lib_hits());
  lib_set_scale(0.5);
  /* The other unit's update reached the one device copy this unit's kernels read. */
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < 8; i++)
    out[i] = scale[i % 4] + hits;
  printf("after %g %g %g\n", out[0], out[2], out[5]);
#pragma omp target update from(scale)
  printf("host %g %g\n", scale[1], scale[3]);
  return 0;
}
