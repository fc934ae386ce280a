// a pointer member stored in the function names different memory
#include <stdlib.h>
struct buf { int n; double *data; };
void grow(struct buf *b, int n) {
  for (int i = 0; i < b->n; i++)
    b->data[i] = 0;
  b->data = realloc(b->data, n * sizeof(double));
  b->n = n;
}
