/* assert() and __func__/__FUNCTION__/__PRETTY_FUNCTION__ in target regions (its `__func__` is an implicitly mapped const array in
 * read-only memory: mapped `to`, never copied back) and const lookup tables mapped
 * implicitly next to a written array. */
#include <assert.h>
#include <stdio.h>

static const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
static const char names[3][5] = {"zero", "one", "two"};

static int check_all(int n) {
  int out[64];
  const double weights[4] = {0.5, 0.25, 0.125, 0.125};
#pragma omp target teams distribute parallel for map(from : out[0:n])
  for (int i = 0; i < n; i++) {
    assert(i >= 0 && i < 64);
    out[i] = primes[i % 8] * (int)(weights[i % 4] * 8);
  }
  int sum = 0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  return sum;
}

int main(void) {
  printf("sum %d\n", check_all(64));
  int lens[3] = {0, 0, 0};
#pragma omp target map(tofrom : lens)
  for (int i = 0; i < 3; i++) {
    int k = 0;
    while (names[i][k])
      k++;
    lens[i] = k;
  }
  printf("name lengths %d %d %d\n", lens[0], lens[1], lens[2]);
  printf("table intact %d %d\n", primes[0], primes[7]);
  /* Three distinct objects in gcc, each mapped on its own. */
#pragma omp target
  printf("in %s / %s / %s\n", __func__, __FUNCTION__, __PRETTY_FUNCTION__);
  return 0;
}
