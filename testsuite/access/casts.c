// integer widening is seen through; narrowing and pointer reinterpretation are not
void f(int n, long m, double *a, char *bytes, double *d) {
  for (int i = 0; i < n; i++) {
    a[(long)i] = 1;
    a[(short)i] = 2;
    a[(int)m] = 3;
  }
  int *w = (int *)bytes;
  for (int i = 0; i < n; i++)
    w[i] = 0;
  for (int i = 0; i < n; i++)
    ((float *)d)[i] = 0;
}
