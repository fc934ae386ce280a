// saxpy: one affine loop, restrict pointers, a target region
void saxpy(int n, float a, const float *restrict x, float *restrict y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

void shift(int n, double *b, const double *c) {
  for (int i = 0; i < n; i++)
    b[i] = c[i + 1] - c[i];
}
