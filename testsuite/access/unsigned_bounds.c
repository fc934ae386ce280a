// unsigned sizes are non-negative: coefficients of known sign
#include <stddef.h>
void f(size_t n, size_t m, double *a) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++)
      a[m * i + j] = 0;
}
void g(int n, int k, double *a) {
  for (int i = 0; i < n; i++)
    a[k * i] = 0;
}
