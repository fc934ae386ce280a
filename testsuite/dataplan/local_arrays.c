// Fixed-size arrays of main with implicit maps inside a loop: each is mapped whole once;
// 'x' is only read on the device (no copy back needed, but main reads it afterwards, and it
// is never stale there), 'y' comes back because main prints it.
#include <stdio.h>
#define N 256

int main(void) {
  double x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 0;
  }
  for (int it = 0; it < 10; it++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      y[i] += 2.0 * x[i];
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i];
  printf("%.1f\n", s);
  return 0;
}
