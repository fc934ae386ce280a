// A double buffer: the two pointers are exchanged after every step, so they are planned
// together (both objects stay mapped whichever name they go by); the probe inside the 'if'
// gets its update there, not on every step.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1024;
  float *cur = malloc(n * sizeof(float)), *next = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    cur[i] = next[i] = (float)(i % 10);
  for (int t = 0; t < 20; t++) {
    #pragma omp target teams distribute parallel for map(to: cur[0:n]) map(tofrom: next[0:n])
    for (int i = 1; i < n - 1; i++)
      next[i] = (cur[i - 1] + cur[i] + cur[i + 1]) / 3.0f;
    float *tmp = cur;
    cur = next;
    next = tmp;
    if (t % 10 == 9) {
      printf("%d %.4f\n", t, cur[n / 2]);
    }
  }
  free(cur);
  free(next);
  return 0;
}
