// pointer increments are not followed; an offset pointer defined once is
void inc(int n, double *p) {
  for (int i = 0; i < n; i++)
    *p++ = 0.0;
}
void offset(int n, double *a) {
  double *q = a + 2;
  for (int i = 0; i < n; i++)
    q[i] = *(a + i);
}
