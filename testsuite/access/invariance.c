// what keeps a symbol usable: not written in the scope, defined once, not written by callees
int g;
void bump(void) { g++; }
void def_then_write(int n, double *a) {
  int k = n;
  for (int i = 0; i < n; i++)
    a[k + i] = 0;
  n = 3;
  a[n] = 1;
}
void callee_writes(int n, double *a) {
  for (int i = 0; i < n; i++) {
    a[g] = 0;
    bump();
  }
}
void written_in_region(int n, double *a) {
  int m = n;
#pragma omp target
  {
    m = 2;
    for (int i = 0; i < m; i++)
      a[i] = 0;
  }
}
