// a local array whose address escapes is no longer provably distinct
double *saved;
void keep(double *p) { saved = p; }
void f(int n, double *q) {
  double mine[16], other[16];
  keep(mine);
  for (int i = 0; i < 16; i++) {
    mine[i] = q[i];
    other[i] = saved[i];
  }
}
