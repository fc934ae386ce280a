// The `dispatch` construct (OpenMP 5.1; gcc 12 ignores it and rejects selectors naming it:
// dispatch.expected): `declare variant ... match(construct={dispatch})` selected only under
// `dispatch`, `novariants` (the base function), `nocontext` (dispatch left out of the
// construct set, so a `construct={parallel}` variant wins inside `parallel`), `device`
// (the default device during the call, restored after), `depend` (waits for a sibling
// task), `nowait`, and `is_device_ptr` on a call whose variant offloads to a device pointer.
#include <omp.h>
#include <stdio.h>

#define N 16

int f_disp(int x) { return x + 100; }
int f_par(int x) { return x + 200; }
#pragma omp declare variant(f_disp) match(construct = {dispatch})
#pragma omp declare variant(f_par) match(construct = {parallel})
int f(int x) { return x; }

// the variant offloads to `p`, memory of the default device
void fill_dev(int *p, int n, int v) {
#pragma omp target is_device_ptr(p)
  for (int i = 0; i < n; i++)
    p[i] = v + 3 * i;
}
#pragma omp declare variant(fill_dev) match(construct = {dispatch})
void fill(int *p, int n, int v);
void fill(int *p, int n, int v) {
  (void)p, (void)n;
  printf("base fill called with %d\n", v);
}

static int seen_device;
void note_device(int x) { seen_device = omp_get_default_device() + x; }

int main(void) {
  int r, zero = 0;
#pragma omp dispatch
  r = f(1);
  printf("dispatch %d, plain call %d\n", r, f(2));
#pragma omp dispatch novariants(zero == 0)
  r = f(3);
  printf("novariants(true) %d\n", r);
#pragma omp dispatch novariants(zero) nocontext(zero + 1)
  r = f(4);
  printf("novariants(false) nocontext(true) %d\n", r);
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+: bad)
  {
    int a, b;
#pragma omp dispatch nocontext(1)
    a = f(5);
#pragma omp dispatch nocontext(0)
    b = f(6);
    bad += !(a == 205 && b == 106);
  }
  printf("in parallel: %d wrong\n", bad);

  // device: the default device during the call only
  int before = omp_get_default_device();
  int host = omp_get_initial_device();
#pragma omp dispatch device(host) nowait
  note_device(1000);
  printf("device(initial) seen: %d, restored: %d\n", seen_device == host + 1000,
         omp_get_default_device() == before);

  // depend: the call waits for the task that produces its argument
  int a = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task depend(out: a) shared(a)
    {
      volatile long spin = 0;
      for (long k = 0; k < 2000000; k++)
        spin += k;
      a = 42;
    }
#pragma omp dispatch depend(in: a)
    r = f(a);
  }
  printf("depend(in: a) %d\n", r);

  // is_device_ptr: the variant offloads to memory of the default device
  int dev = omp_get_default_device();
  int *p = omp_target_alloc(N * sizeof(int), dev);
  int out[N];
#pragma omp dispatch is_device_ptr(p)
  fill(p, N, 7);
  omp_target_memcpy(out, p, N * sizeof(int), 0, 0, host, dev);
  omp_target_free(p, dev);
  long sum = 0;
  for (int i = 0; i < N; i++)
    sum += (long)out[i] * (i + 1);
  printf("fill through the variant: %d %d %ld\n", out[0], out[N - 1], sum);
  return 0;
}
