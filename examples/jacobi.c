/* Jacobi iterations on a 2-D grid; the grids stay on the device for all iterations
 * (`target data`), only the final grid comes back.
 *   ompcc -fopenmp -O2 examples/jacobi.c -o jacobi && OMPCC_DEVICE=emu ./jacobi */
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define ITERS 100

int main(void) {
  double *u = malloc(N * N * sizeof *u);
  double *v = malloc(N * N * sizeof *v);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double edge = (i == 0 || j == 0 || i == N - 1 || j == N - 1) ? 1.0 : 0.0;
      u[i * N + j] = edge * (double)(i + j);
      v[i * N + j] = u[i * N + j];
    }

#pragma omp target data map(tofrom: u[0:N * N]) map(to: v[0:N * N])
  {
    for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          v[i * N + j] = 0.25 * (u[(i - 1) * N + j] + u[(i + 1) * N + j] +
                                 u[i * N + j - 1] + u[i * N + j + 1]);
#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          u[i * N + j] = v[i * N + j];
    }
  }

  double sum = 0.0;
  for (int i = 0; i < N * N; i++)
    sum += u[i] * (double)(i % 7 + 1);
  printf("jacobi %dx%d after %d iterations: checksum=%.6f center=%.6f\n", N, N, ITERS, sum,
         u[(N / 2) * N + N / 2]);
  free(u);
  free(v);
  return 0;
}
