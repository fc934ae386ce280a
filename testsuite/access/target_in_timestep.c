// a target region inside a time-step loop: sections at the region's statement
void heat(int n, int steps, double *restrict u, double *restrict v) {
  for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for map(to: u[0:n]) map(from: v[0:n])
    for (int i = 1; i < n - 1; i++)
      v[i] = 0.5 * (u[i - 1] + u[i + 1]);
#pragma omp target teams distribute parallel for map(to: v[0:n]) map(from: u[0:n])
    for (int i = 1; i < n - 1; i++)
      u[i] = v[i];
  }
}
