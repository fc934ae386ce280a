/* saxpy: y = a*x + y on the device, checked against the host.
 *   ompcc -fopenmp -O2 examples/saxpy.c -o saxpy && OMPCC_DEVICE=emu ./saxpy */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1 << 16;
  float a = 2.5f;
  float *x = malloc(n * sizeof *x);
  float *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 97) * 0.25f;
    y[i] = (float)(i % 13);
  }

#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];

  double sum = 0.0;
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    float want = a * ((float)(i % 97) * 0.25f) + (float)(i % 13);
    if (y[i] != want)
      wrong++;
    sum += y[i];
  }
  printf("saxpy n=%d checksum=%.3f wrong=%d\n", n, sum, wrong);
  free(x);
  free(y);
  return wrong != 0;
}
