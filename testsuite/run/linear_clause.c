// `linear` in target regions (OpenMP 5.2 5.4.6): each logical iteration k starts with
// x + k * step, the value after the last iteration is copied back (combined target
// constructs map the item tofrom), on `parallel for`, `simd`, `parallel for simd`, a nested
// `parallel for simd`, collapse(2), and a simd loop's own variable listed; `lastprivate` on a
// non-rectangular collapsed nest.
#include <stdio.h>

#define N 200

int main(void) {
  int a[N], b[N];
  long c[N];
  int j = 5;
#pragma omp target parallel for linear(j : 3) map(from : a)
  for (int i = 0; i < N; i++) {
    a[i] = j;
    j += 3;
  }
  printf("parallel for: %d %d %d j=%d\n", a[0], a[1], a[N - 1], j);

  long k = -7;
#pragma omp target simd linear(k : 2) map(from : c)
  for (int i = 0; i < N; i++) {
    c[i] = k * 10;
    k += 2;
  }
  printf("simd: %ld %ld k=%ld\n", c[0], c[N - 1], k);

  int m = 100;
#pragma omp target parallel for simd linear(m) map(from : b)
  for (int i = 0; i < N; i++) {
    b[i] = m;
    m++;
  }
  printf("parallel for simd: %d %d m=%d\n", b[0], b[N - 1], m);

  short s = 3;
#pragma omp target map(tofrom : s, a)
#pragma omp parallel for simd linear(s : 4)
  for (int i = N - 1; i >= 0; i--) {
    a[i] = s;
    s += 4;
  }
  printf("nested parallel for simd: %d %d s=%d\n", a[N - 1], a[0], s);

  int t = 0, grid[10][20];
#pragma omp target parallel for collapse(2) linear(t : 1) map(from : grid)
  for (int x = 0; x < 10; x++)
    for (int y = 0; y < 20; y++) {
      grid[x][y] = t;
      t++;
    }
  printf("collapse(2): %d %d %d t=%d\n", grid[0][1], grid[1][0], grid[9][19], t);

  int i;
  long sum = 0;
#pragma omp target simd linear(i : 2) reduction(+ : sum) map(tofrom : i)
  for (i = 0; i < N; i += 2) sum += i;
  printf("loop variable: sum=%ld i=%d\n", sum, i);

  // lastprivate on a non-rectangular collapsed nest whose last outer iterations run no inner
  // iteration: the value of the sequentially last logical iteration
  int x, y, lastv = -1, cnt = 0;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(lastv) \
    reduction(+ : cnt) map(to : a)
  for (x = N - 1; x >= 0; x--)
    for (y = 0; y < x - 1; y++) {
      lastv = a[y] * 1000 + x;
      cnt++;
    }
  printf("non-rectangular lastprivate: %d cnt=%d\n", lastv, cnt);
  return 0;
}
