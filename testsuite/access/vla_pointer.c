// a pointer to a variable length array: one subscript per dimension
#include <stdlib.h>
void grid(int n, int m) {
  double (*a)[m] = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = i + j;
  free(a);
}
