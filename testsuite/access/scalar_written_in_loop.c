// a scalar written in the loop is not an induction variable the analysis knows
void pack(int n, const double *src, double *dst) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (src[i] > 0)
      dst[k++] = src[i];
  }
  int m = 0;
  for (int i = 0; i < n; i++) {
    m = 2 * i;
    dst[m] = 0;
  }
}
