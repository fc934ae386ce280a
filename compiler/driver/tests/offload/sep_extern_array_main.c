/* Separate compilation: an array of unknown size (`extern double table[];`) that another
   unit defines with a size in a declare target directive. This unit maps sections of it and
   updates them; the present table finds the other unit's device copy. (gcc rejects an
   incomplete type inside `declare target` itself, so the declaration stays outside.) */
#include <stdio.h>

extern double table[];
#pragma omp declare target
double get(int i);
#pragma omp end declare target
void lib_fill(double s);

int main(void) {
  double out[16];
  lib_fill(1.5);
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < 16; i++)
    out[i] = get(i % 8);
  printf("out %g %g %g\n", out[1], out[6], out[15]);
  for (int k = 0; k < 8; k++)
    table[k] = -k;
#pragma omp target update to(table[0:8])
#pragma omp target map(tofrom: table[2:4])
  {
    for (int k = 2; k < 6; k++)
      table[k] += 100;
  }
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < 16; i++)
    out[i] = get(i % 8);
  printf("after %g %g %g\n", out[2], out[5], out[7]);
#pragma omp target update from(table[0:8])
  printf("host %g %g %g\n", table[3], table[6], table[7]);
  return 0;
}
