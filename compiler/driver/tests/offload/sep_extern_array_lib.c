/* The unit that defines `table` with its size. */
#pragma omp declare target
double table[8];
double get(int i) { return table[i] * 10; }
#pragma omp end declare target

void lib_fill(double s) {
  for (int k = 0; k < 8; k++)
    table[k] = s * k;
#pragma omp target update to(table)
}
