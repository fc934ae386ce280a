// externals without a body: const pointees are read, others unknown
void consume(const double *p, int n);
void produce(double *p, int n);
void f(int n, double *a, double *b) {
  for (int i = 0; i < n; i++)
    a[i] = i;
  consume(a, n);
  produce(b, n);
}
