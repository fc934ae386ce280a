// scalar reductions
double dot(int n, const double *x, const double *y) {
  double s = 0.0;
  int count = 0;
  double p = 1.0;
  for (int i = 0; i < n; i++) {
    s += x[i] * y[i];
    count++;
    p = p * x[i];
  }
  double bad = 0.0;
  for (int i = 0; i < n; i++) {
    bad = bad + x[i];
    if (bad > 10)
      break;
  }
  return s + count + p + bad;
}
