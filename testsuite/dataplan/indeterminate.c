// A malloc'ed buffer the host never writes before the kernels: its values are indeterminate,
// so the kernel that writes only part of it needs no copy in (OMPDart's backprop `partial`),
// though the host reads it back between kernels. Each other function keeps the copy in:
// the host wrote one element first, the memory is calloc's zeros, a label lets the range run
// again after the host wrote it, or the pointer escapes before the range.
#include <stdlib.h>

long reads_back(int n, int steps) {
  long *part = malloc(2 * n * sizeof *part), s = 0;
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: part[0:2 * n])
    for (int i = 0; i < n; i++)
      part[2 * i + 1] = i + t;
    for (int i = 0; i < n; i++)
      s += part[2 * i + 1];
  }
  free(part);
  return s;
}

long written_first(int n, int steps) {
  long *part = malloc(2 * n * sizeof *part), s = 0;
  part[0] = 1;
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: part[0:2 * n])
    for (int i = 0; i < n; i++)
      part[2 * i + 1] = i + t;
    for (int i = 0; i < n; i++)
      s += part[2 * i + 1];
  }
  s += part[0];
  free(part);
  return s;
}

long zeroed(int n, int steps) {
  long *part = calloc(2 * n, sizeof *part), s = 0;
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: part[0:2 * n])
    for (int i = 0; i < n; i++)
      part[2 * i + 1] = i + t;
    for (int i = 0; i < n; i++)
      s += part[2 * i];
  }
  free(part);
  return s;
}

long labelled(int n, int steps) {
  long *part = malloc(2 * n * sizeof *part), s = 0;
again:
  s++;
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: part[0:2 * n])
    for (int i = 0; i < n; i++)
      part[2 * i + 1] = i + t;
    for (int i = 0; i < n; i++)
      s += part[2 * i];
  }
  part[0] = s;
  if (s < 100)
    goto again;
  free(part);
  return s;
}

long *kept;

long escaped(int n, int steps) {
  long *part = malloc(2 * n * sizeof *part), s = 0;
  kept = part;
  for (int t = 0; t < steps; t++) {
    #pragma omp target teams distribute parallel for map(tofrom: part[0:2 * n])
    for (int i = 0; i < n; i++)
      part[2 * i + 1] = i + t;
    for (int i = 0; i < n; i++)
      s += part[2 * i + 1];
  }
  return s;
}
