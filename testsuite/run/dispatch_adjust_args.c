// `adjust_args` of `declare variant` (OpenMP 5.1, 5.2 7.5.2; gcc 12 rejects it:
// dispatch_adjust_args.expected, the output 5.2 prescribes). At a `dispatch` call that selects
// the variant, a `need_device_ptr` argument is the device address of the default device's
// copy of its storage (as `use_device_ptr` translates it), a `nothing` argument (and any
// other) passes as it is, and an argument the construct names in `is_device_ptr` is a device
// pointer already. Without a device the default device is the host and every pointer stays
// the host's, so the program prints the same everywhere.
#include <omp.h>
#include <stdio.h>

#define N 64

float A[N], B[N], E[N];
int *D;

// a <- s * a + b, on the default device; `a` is its copy of A, `b` the host's B
void axpy_dev(float *a, const float *b, int n, float s) {
  int dev = omp_get_default_device();
  printf("variant: a is A's device copy %d, b is B %d\n", a == omp_get_mapped_ptr(A, dev),
         b == B);
#pragma omp target is_device_ptr(a) map(to: b[0:n])
  for (int i = 0; i < n; i++)
    a[i] = s * a[i] + b[i];
}
#pragma omp declare variant(axpy_dev) match(construct = {dispatch}) \
    adjust_args(need_device_ptr: a) adjust_args(nothing: b)
void axpy(float *a, const float *b, int n, float s);
void axpy(float *a, const float *b, int n, float s) {
  for (int i = 0; i < n; i++)
    a[i] = s * a[i] + b[i] + 1000; // marks the base function
}

// counts into memory of the default device
int count_dev(int *d, int n) {
#pragma omp target is_device_ptr(d) map(tofrom: n)
  for (int i = 0; i < n; i++)
    d[i] += i;
  return n;
}
#pragma omp declare variant(count_dev) match(construct = {dispatch}) \
    adjust_args(need_device_ptr: d)
int count(int *d, int n) { return -n; }

// in device code a pointer holds its device address already: need_device_ptr keeps it
#pragma omp begin declare target
int sum_disp(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  return 10 * s;
}
#pragma omp declare variant(sum_disp) match(construct = {dispatch}) \
    adjust_args(need_device_ptr: p)
int sum_of(int *p, int n) { return -n; }
#pragma omp end declare target

int main(void) {
  for (int i = 0; i < N; i++) {
    A[i] = i;
    B[i] = 1.0f;
  }
  int dev = omp_get_default_device();
#pragma omp target data map(tofrom: A)
  {
#pragma omp dispatch
    axpy(A, B, N, 2.0f);
    // novariants: the base function, with the arguments as they are
#pragma omp dispatch novariants(1)
    axpy(E, B, 2, 1.0f);
    printf("novariants: E[0] = %g E[1] = %g\n", E[0], E[1]);
  }
  float sum = 0;
  for (int i = 0; i < N; i++)
    sum += A[i];
  printf("after the data region: A[0] = %g A[3] = %g A[63] = %g sum = %g\n", A[0], A[3], A[63],
         sum);

  // device memory from omp_target_alloc: is_device_ptr keeps it as it is
  D = omp_target_alloc(N * sizeof(int), dev);
  int zeros[N] = {0}, back[N];
  omp_target_memcpy(D, zeros, sizeof zeros, 0, 0, dev, omp_get_initial_device());
  int r;
#pragma omp dispatch is_device_ptr(D)
  r = count(D, N);
  omp_target_memcpy(back, D, sizeof back, 0, 0, omp_get_initial_device(), dev);
  omp_target_free(D, dev);
  printf("count returned %d, back[0] = %d back[63] = %d\n", r, back[0], back[63]);

  int data[4] = {1, 2, 3, 4}, out = 0;
#pragma omp target map(to: data) map(from: out)
  {
#pragma omp dispatch
    out = sum_of(data, 4);
  }
  printf("in a target region: %d\n", out);
  return 0;
}
