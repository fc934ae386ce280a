/* One unit: `extern double table[];` declared (and used in target regions through array
   sections) before its definition with a size in a declare target directive. */
#include <stdio.h>

extern double table[];
#pragma omp declare target
double get(int i);
#pragma omp end declare target

int main(void) {
  double out[16];
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < 16; i++)
    out[i] = get(i % 8);
#pragma omp target map(tofrom: table[2:4])
  {
    for (int k = 2; k < 6; k++)
      table[k] += 100;
  }
#pragma omp target update from(table[0:8])
  printf("out %g %g host %g %g %g\n", out[3], out[12], table[1], table[3], table[7]);
  return 0;
}

#pragma omp declare target
double table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
double get(int i) { return table[i] * 2; }
#pragma omp end declare target
