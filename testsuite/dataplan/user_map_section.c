// The region maps more than its kernel touches: the planner maps the user's section, which
// the region's own map then finds present (a smaller one it would find only in part).
void twice(float *a, int n) {
  for (int t = 0; t < 3; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n + 1])
    for (int i = 0; i < n; i++)
      a[i] *= 2.0f;
  }
}
