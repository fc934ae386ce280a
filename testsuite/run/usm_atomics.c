// `requires unified_shared_memory` (gcc 12: "sorry, unimplemented", so usm_atomics.expected
// holds the output the specification prescribes): atomic constructs in target regions update
// host memory that nothing maps (a malloc'ed counter and histogram, a stack variable, a
// global) and mapped memory, from many teams and threads at once.
#include <stdio.h>
#include <stdlib.h>

#pragma omp requires unified_shared_memory

#define N 4096
#define BINS 16

long total_global[2]; // an aggregate: mapped tofrom implicitly (a scalar would be firstprivate)

int main(void) {
  int *counter = malloc(sizeof *counter);
  unsigned *hist = calloc(BINS, sizeof *hist);
  int *data = malloc(N * sizeof *data);
  *counter = 0;
  for (int i = 0; i < N; i++)
    data[i] = (i * 37 + 11) % 101;

#pragma omp target teams distribute parallel for num_teams(8) thread_limit(64)
  for (int i = 0; i < N; i++) {
#pragma omp atomic
    *counter += 1;
#pragma omp atomic update
    hist[data[i] % BINS]++;
  }
  unsigned hsum = 0;
  for (int b = 0; b < BINS; b++)
    hsum += hist[b];
  printf("counter=%d hist[0]=%u hist[7]=%u hsum=%u\n", *counter, hist[0], hist[7], hsum);

  // atomic capture: every iteration takes a distinct ticket from the host counter.
  int *tickets = malloc(N * sizeof *tickets);
  *counter = 0;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++) {
    int t;
#pragma omp atomic capture
    t = (*counter)++;
    tickets[i] = t;
  }
  char *seen = calloc(N, 1);
  int dup = 0;
  for (int i = 0; i < N; i++) {
    if (tickets[i] < 0 || tickets[i] >= N || seen[tickets[i]])
      dup++;
    else
      seen[tickets[i]] = 1;
  }
  printf("tickets: counter=%d duplicates=%d\n", *counter, dup);

  // A stack variable through a pointer, a global directly, and a mapped scalar.
  long stack_max = 0;
  long *pm = &stack_max;
  long mapped = 0;
#pragma omp target teams distribute parallel for map(tofrom: mapped)
  for (int i = 0; i < N; i++) {
    long v = data[i];
#pragma omp atomic compare
    if (*pm < v) {
      *pm = v;
    }
#pragma omp atomic
    total_global[1] += v;
#pragma omp atomic
    mapped += i % 2;
  }
  printf("max=%ld total=%ld mapped=%ld\n", stack_max, total_global[1], mapped);

  free(counter);
  free(hist);
  free(data);
  free(tickets);
  free(seen);
  return 0;
}
