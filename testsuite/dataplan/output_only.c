// A result array the first kernel writes completely: it is allocated on the device, not
// copied in, and copied back once at the end because main reads it.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  float *in = malloc(n * sizeof(float));
  float *out = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    in[i] = i * 0.5f;
  #pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = 2.0f * in[i];
  #pragma omp target teams distribute parallel for map(tofrom: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] += 1.0f;
  printf("%.1f %.1f\n", out[0], out[n - 1]);
  free(in);
  free(out);
  return 0;
}
