/* Both units: a static device function and a static function with a kernel, same names and
   lines, different results. */
#include <stdio.h>
#pragma omp declare target
static int helper(int i) { return i * 3; }
#pragma omp end declare target
static int run(int n) {
  int s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)
  for (int i = 0; i < n; i++)
    s += helper(i);
  return s;
}
int b_total(int n);
int main(void) {
  printf("a %d b %d\n", run(100), b_total(100));
  printf("a %d b %d\n", run(10), b_total(10));
  return 0;
}
