// a variable whose address is taken may change through any store
void init(int *n);
void f(double *a) {
  int n;
  init(&n);
  for (int i = 0; i < n; i++)
    a[i] = 0;
}
