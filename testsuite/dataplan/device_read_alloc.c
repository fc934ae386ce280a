// Buffers nothing copies back need on the device only the elements kernels read. 'f' is
// written by the first kernel at 1..n-2 (not its ends) and read there by the second; 'd' is
// written by the host at 1..n-1 before the kernel that reads those: both are allocated, not
// copied in. 'g' is read at 0..n-1 but written at 1..n-2: copied in. (A `break` in the loop
// does not change that: the flow leaves with the state where it jumps.)
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 256;
  long *x = malloc(n * sizeof *x), *f = malloc(n * sizeof *f);
  long *d = malloc(n * sizeof *d), *g = malloc(n * sizeof *g);
  for (int i = 0; i < n; i++) {
    x[i] = i % 17;
    f[i] = 0;
    d[i] = 0;
    g[i] = 1;
  }
  long s = 0;
  for (int t = 0; t < 6; t++) {
    for (int i = 1; i < n; i++)
      d[i] = t + i % 3;
    #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: f[0:n], g[0:n])
    for (int i = 1; i < n - 1; i++) {
      f[i] = x[i - 1] - 2 * x[i] + x[i + 1];
      g[i] = x[i] * 3 % 5;
    }
    s = 0;
    #pragma omp target teams distribute parallel for reduction(+: s) map(to: f[0:n], d[0:n], g[0:n])
    for (int i = 1; i < n - 1; i++)
      s += f[i] * d[i] + g[i - 1] + g[i + 1];
    if (s > 100000)
      break;
  }
  printf("%ld\n", s);
  free(x);
  free(f);
  free(d);
  free(g);
  return 0;
}
