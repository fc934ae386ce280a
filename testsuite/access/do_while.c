// a do-while loop: its accesses use no variable it writes, so they stay affine
void f(int n, double *a, double *err) {
  do {
    for (int i = 0; i < n; i++)
      a[i] *= 0.5;
    err[0] = a[0];
  } while (err[0] > 1e-6);
}
