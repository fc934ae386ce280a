// a pointer returned by a call is untraced; a pointer assigned twice too
double *get(void);
void f(int n, double *a, int c) {
  double *p = get();
  double *q = a;
  if (c)
    q = a + n;
  for (int i = 0; i < n; i++) {
    p[i] = 0;
    q[i] = 1;
  }
}
