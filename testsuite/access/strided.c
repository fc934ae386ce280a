// constant steps other than one
void even(int n, double *a, double *b) {
  for (int i = 0; i < n; i += 2)
    a[i] = b[i + 1];
}
void scaled(int n, double *a) {
  for (int i = 0; i < n; i++)
    a[3 * i + 2] = 0.0;
}
void by4(int n, float *v) {
  for (int i = 1; i <= n; i = i + 4)
    v[i - 1] = v[i];
}
