// built-in summaries of memcpy, memset and printf
#include <string.h>
#include <stdio.h>
#include <math.h>
void f(int n, double *dst, const double *src, int *flags) {
  memcpy(dst, src, n * sizeof(double));
  memset(flags, 0, n * sizeof(int));
  for (int i = 0; i < n; i++)
    dst[i] = sqrt(dst[i]);
  printf("%f\n", dst[0]);
}
