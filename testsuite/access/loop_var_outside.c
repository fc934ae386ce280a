// a loop variable declared before the loop, and used after it
void f(int n, double *a) {
  int i;
  for (i = 0; i < n; i++)
    a[i] = 0;
  a[i] = 1;
}
