// a global loop variable that a callee writes is not canonical
int i;
void reset(void) { i = 0; }
void f(int n, double *a) {
  for (i = 0; i < n; i++) {
    a[i] = 0;
    reset();
  }
}
void g(int n, double *a) {
  for (i = 0; i < n; i++)
    a[i] = 1;
}
// a store through an int pointer may change a global int bound (C11 6.5p7); a double store may not
int N;
static int M;
void ints(int *a) {
  for (int k = 0; k < N; k++)
    a[k] = 0;
}
void doubles(double *a) {
  for (int k = 0; k < N; k++)
    a[k] = 0;
}
void internal(int *a) {
  for (int k = 0; k < M; k++)
    a[k] = 0;
}
