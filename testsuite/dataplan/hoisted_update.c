// The host reads the whole array in a loop after each kernel: one update from before that
// loop (hoisted out of it, with the loop's section), not one per element.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 300;
  int *v = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    v[i] = i;
  long total = 0;
  for (int t = 0; t < 5; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: v[0:n])
    for (int i = 0; i < n; i++)
      v[i] = (v[i] * 7 + t) % 1001;
    for (int i = 0; i < n; i++)
      total += v[i];
  }
  printf("%ld\n", total);
  free(v);
  return 0;
}
