// The `dispatch` construct in device code (OpenMP 5.1; gcc 12 rejects selectors naming
// `dispatch`: dispatch_device.expected, the output OpenMP 5.2 7.6 prescribes): inside target
// regions and declare-target functions the target call calls the variant selected with
// `dispatch` in the construct set; `novariants(true)` calls the base function,
// `nocontext(true)` selects without `dispatch` (so a `construct={target}` variant wins);
// each clause expression is evaluated once; `depend` and `nowait` change nothing.
#include <stdio.h>

#pragma omp begin declare target
int f_disp(int x) { return x + 100; }
int f_tgt(int x) { return x + 200; }
#pragma omp declare variant(f_disp) match(construct = {dispatch})
#pragma omp declare variant(f_tgt) match(construct = {target})
int f(int x) { return x; }

int g_disp(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s * 10;
}
#pragma omp declare variant(g_disp) match(construct = {dispatch})
int g(int *p, int n) { return p[0] - n; }

// a declare-target function using dispatch
int through(int x, int nv) {
  int r;
#pragma omp dispatch novariants(nv)
  r = f(x);
  return r;
}
#pragma omp end declare target

int main(void) {
  int out[12] = {0};
  int data[4] = {1, 2, 3, 4};
  int zero = 0, evals = 0;
#pragma omp target map(tofrom: out, evals) map(to: data)
  {
    int r;
#pragma omp dispatch
    r = f(1);
    out[0] = r;
    out[1] = f(2); // not dispatched: the target variant
#pragma omp dispatch novariants(zero == 0)
    r = f(3);
    out[2] = r;
#pragma omp dispatch novariants(zero) nocontext(zero + 1)
    r = f(4);
    out[3] = r;
#pragma omp dispatch novariants((evals++, 0)) nocontext((evals += 10, 0))
    out[4] = f(5);
#pragma omp dispatch depend(in: data) nowait
    out[5] = g(data, 4);
    int *p = data;
#pragma omp dispatch is_device_ptr(p)
    out[6] = g(p, 2);
    out[7] = through(7, 0);
    out[8] = through(8, 1);
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      {
#pragma omp dispatch
        out[9] = f(9);
      }
    }
  }
  for (int i = 0; i < 10; i++) printf("out[%d] = %d\n", i, out[i]);
  printf("clause evaluations: %d\n", evals);
  return 0;
}
