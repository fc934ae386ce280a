// an array reduction with an indirect subscript
void hist(int n, const int *data, int *bins) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    bins[data[i] & 15]++;
}
