// Loops that must stay on the host, each with the fact that keeps it there.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int counter;
#pragma omp threadprivate(counter)

struct node { int v; struct node *next; };

static int twice(int v) { return 2 * v; }
static int (*table[2])(int) = {twice, twice};

int main(void) {
  int n = 64, slots[64] = {0}, sum = 0, last = 0;
  int *a = malloc(n * sizeof *a);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = rand() % 2;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    slots[i] = omp_get_thread_num() >= 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    counter += a[i];
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = table[i % 2](i);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    last = a[i];
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++)
    sum += 0;
  for (int i = 0; i < n; i++)
    sum += slots[i] + a[i];
  printf("%d %d\n", sum, last >= 0);
  free(a);
  return 0;
}
