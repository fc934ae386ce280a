#include <stdio.h>
#include <omp.h>

#pragma omp begin declare target indirect
static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
#pragma omp end declare target

int negate(int x) { return -x; }
#pragma omp declare target enter(negate) indirect

typedef int (*op_fn)(int);

int main(void) {
  op_fn ops[3] = {twice, square, negate};
  int out[3][8];
  /* host function addresses travel in a mapped array and as firstprivate scalars */
#pragma omp target teams distribute parallel for collapse(2) map(to: ops) map(from: out)
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 8; i++) out[k][i] = ops[k](i + 1);
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < 8; i++) printf(" %d", out[k][i]);
    printf("\n");
  }
  op_fn f = square;
  int r = 0;
#pragma omp target map(from: r)
  r = f(7);
  printf("r %d\n", r);
  return 0;
}
