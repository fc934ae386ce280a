// calls through pointers are unknown
typedef void (*op_t)(int, double *);
void apply(op_t op, int n, double *a, double *b) {
  for (int i = 0; i < n; i++)
    b[i] = a[i];
  op(n, b);
}
