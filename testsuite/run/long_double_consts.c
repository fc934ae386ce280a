// long double constants in device code: gcc's <float.h> spells DBL_MAX, DBL_MIN and
// DBL_EPSILON as long double literals cast to double; a kernel computing a minimum starts from
// -DBL_MAX / DBL_MAX. Constant long double expressions converted to double, float or an integer
// are folded; no long double value exists at run time.
#include <float.h>
#include <stdio.h>

#define N 200

int main(void) {
  double a[N];
  float f[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)((i * 37) % 101) - 50.0;
    f[i] = (float)((i * 13) % 29) * 0.25f;
  }
  double mx = -DBL_MAX, mn = DBL_MAX;
  float fmx = -FLT_MAX;
  int tiny = 0, eps = 0;
#pragma omp target teams distribute parallel for map(to: a, f) \
    reduction(max: mx, fmx) reduction(min: mn) reduction(+: tiny, eps)
  for (int i = 0; i < N; i++) {
    double m = -DBL_MAX; // a per-iteration running maximum
    if (a[i] > m) m = a[i];
    if (m > mx) mx = m;
    double lo = DBL_MAX;
    if (a[i] < lo) lo = a[i];
    if (lo < mn) mn = lo;
    float fm = -FLT_MAX;
    if (f[i] > fm) fm = f[i];
    if (fm > fmx) fmx = fm;
    if (DBL_MIN > 0.0 && DBL_MIN < 1e-300) tiny++;
    if (1.0 + DBL_EPSILON > 1.0 && 1.0 + DBL_EPSILON / 2 == 1.0) eps++;
  }
  printf("max %.1f min %.1f fmax %.2f tiny %d eps %d\n", mx, mn, (double)fmx, tiny, eps);

  // Folded long double arithmetic, casts and implicit conversions in a serial region.
  double c[6];
  float g[2];
  long k[2];
#pragma omp target map(from: c, g, k)
  {
    c[0] = 0.5L * 3.0L;           // implicit conversion of a long double product
    c[1] = (double)(1.0L / 4.0L); // cast of a quotient
    c[2] = -(double)2.5e10L;      // negated cast
    c[3] = DBL_MAX / 2;           // double arithmetic on a folded constant
    c[4] = (double)LDBL_EPSILON;  // representable in double
    c[5] = DBL_MIN * 4.0;
    g[0] = (float)1.25L;
    g[1] = 3.0L - 0.5L;
    k[0] = (long)1e15L;
    k[1] = 7.9L;
  }
  printf("%.3f %.3f %.1f %.6e %.6e %.6e\n", c[0], c[1], c[2], c[3], c[4], c[5]);
  printf("%.3f %.3f %ld %ld\n", (double)g[0], (double)g[1], k[0], k[1]);
  printf("%.6e %.6e %.6e\n", DBL_MAX, DBL_MIN, DBL_EPSILON);
  return 0;
}
