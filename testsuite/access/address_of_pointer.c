// a pointer whose address is taken may be redirected by any store of its type
void set(double **pp, double *q) { *pp = q; }
void f(int n, double *a, double *b) {
  double *p = a;
  set(&p, b);
  for (int i = 0; i < n; i++)
    p[i] = 0;
}
