// subscripts that read memory are unknown
void gather(int n, const int *idx, const double *src, double *dst) {
  for (int i = 0; i < n; i++)
    dst[i] = src[idx[i]];
}
void scatter(int n, const int *idx, const double *src, double *dst) {
  for (int i = 0; i < n; i++)
    dst[idx[i]] += src[i];
}
