// Reductions in teams whose last warp is partial (thread_limit not a multiple of 32): the
// warp shuffle tree must combine exactly the lanes that exist.
#include <stdio.h>

#define N 1000

static void run(int tl) {
  long sum = 0, prod = 1;
  int mn = 1 << 30, mx = -(1 << 30), all = 1, any = 0, x = 0;
  double dsum = 0.0, dmin = 1e30, dmax = -1e30;
  float fsum = 0.0f;
#pragma omp target teams distribute parallel for num_teams(3) thread_limit(tl) \
    reduction(+ : sum, dsum, fsum) reduction(* : prod) reduction(min : mn, dmin) \
    reduction(max : mx, dmax) reduction(&& : all) reduction(|| : any) reduction(^ : x)
  for (int i = 0; i < N; i++) {
    sum += i;
    prod *= (i % 97 == 3) ? 2 : 1;
    mn = i * 7 % 1013 < mn ? i * 7 % 1013 : mn;
    mx = i * 11 % 1009 > mx ? i * 11 % 1009 : mx;
    all = all && (i != 777);
    any = any || (i == 999);
    x ^= i * 2654435761u;
    dsum += (double)(i % 10);
    fsum += (float)(i % 4);
    double d = (double)((i * 37) % 1000) - 500.0;
    dmin = d < dmin ? d : dmin;
    dmax = d > dmax ? d : dmax;
  }
  printf("tl=%d sum=%ld prod=%ld min=%d max=%d all=%d any=%d xor=%d dsum=%.1f fsum=%.1f "
         "dmin=%.1f dmax=%.1f\n",
         tl, sum, prod, mn, mx, all, any, x, dsum, fsum, dmin, dmax);
}

int main(void) {
  int limits[] = {1, 5, 31, 33, 40, 64, 96, 100};
  for (int k = 0; k < 8; k++)
    run(limits[k]);
  return 0;
}
