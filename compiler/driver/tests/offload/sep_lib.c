/* The other unit: a declare-target function (and a kernel of its own). */
#pragma omp declare target
double weight(int i) { return i * 0.25 + (i % 3); }
#pragma omp end declare target

double lib_total(int n) {
  double t = 0;
#pragma omp target teams distribute parallel for reduction(+: t)
  for (int i = 0; i < n; i++)
    t += weight(i);
  return t;
}
