/* Sparse matrix-vector product, CSR format: one row per iteration on the device.
 *   ompcc -fopenmp -O2 examples/spmv.c -o spmv && OMPCC_DEVICE=emu ./spmv */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int rows = 2000;
  /* A banded matrix with a few far entries: 5 nonzeros per row at most. */
  int *row_ptr = malloc((rows + 1) * sizeof *row_ptr);
  int *cols = malloc(rows * 5 * sizeof *cols);
  double *vals = malloc(rows * 5 * sizeof *vals);
  int nnz = 0;
  for (int r = 0; r < rows; r++) {
    row_ptr[r] = nnz;
    int want[5] = {r - 1, r, r + 1, (r * 7) % rows, (r * 13 + 5) % rows};
    for (int k = 0; k < 5; k++) {
      int c = want[k], seen = 0;
      for (int q = row_ptr[r]; q < nnz; q++)
        seen |= cols[q] == c;
      if (c < 0 || c >= rows || seen)
        continue;
      cols[nnz] = c;
      vals[nnz] = 1.0 / (double)(1 + k + (r % 3));
      nnz++;
    }
  }
  row_ptr[rows] = nnz;
  double *x = malloc(rows * sizeof *x);
  double *y = malloc(rows * sizeof *y);
  for (int i = 0; i < rows; i++)
    x[i] = (double)(i % 10) - 4.5;

#pragma omp target teams distribute parallel for map(to: row_ptr[0:rows + 1], cols[0:nnz], vals[0:nnz], x[0:rows]) map(from: y[0:rows])
  for (int r = 0; r < rows; r++) {
    double acc = 0.0;
    for (int q = row_ptr[r]; q < row_ptr[r + 1]; q++)
      acc += vals[q] * x[cols[q]];
    y[r] = acc;
  }

  double sum = 0.0;
  for (int r = 0; r < rows; r++)
    sum += y[r] * (double)(r % 5 + 1);
  printf("spmv rows=%d nnz=%d checksum=%.6f\n", rows, nnz, sum);
  free(row_ptr);
  free(cols);
  free(vals);
  free(x);
  free(y);
  return 0;
}
