// unions: fields of an element, and a pointer member of a union variable
union u { double d; long l; };
union pp { double *dp; long *lp; };
void f(int n, union u *a, union pp q) {
  for (int i = 0; i < n; i++) {
    a[i].l = 0;
    q.dp[i] = 1.0;
    q.lp[i] = 2;
  }
}
