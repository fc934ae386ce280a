/* Declare-target globals and functions, target update of a global, device math. */
#include <math.h>
#include <stdio.h>

#pragma omp declare target
double coef = 1.5;
int table[4] = {1, 2, 3, 4};
static double shape(double x) { return coef * sin(x) + sqrt(x) + exp(-x) + table[(int)x % 4]; }
#pragma omp end declare target

int main(void) {
  double out[256];
  int n = 256;
#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < n; i++)
    out[i] = shape(i * 0.01) + pow(1.0 + i * 0.001, 2.5) + fabs(cos(i * 0.1)) + floor(i * 0.3);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += out[i];
  printf("first sum %.6f out[7] %.6f\n", s, out[7]);
  coef = -2.0;
#pragma omp target update to(coef)
  float f = 0;
#pragma omp target map(tofrom: f)
  f = (float)shape(2.0) + sqrtf(2.0f) + logf(3.0f);
  printf("after update %.5f\n", f);
  return 0;
}
