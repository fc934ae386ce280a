// `target update to/from` of sections whose inner dimension is not whole move only the
// section's elements: host values between its rows survive a `from`, and device values between
// them survive a `to` (gcc 12 rejects these sections: update_discontiguous.expected).
#include <stdio.h>
#include <stdlib.h>

#define N 5
#define M 6

static void dump(const char *tag, const double *v, int rows, int cols) {
  printf("%s:\n", tag);
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++)
      printf(" %4d", (int)v[i * cols + j]);
    printf("\n");
  }
}

static int in2(int i, int j, int n) { return i >= 1 && i < 1 + n && j >= 2 && j < 5; }

int main(void) {
  double a[N][M], b[N][M];
  int n = 3;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = 10 * i + j;

  // from: the device writes the section; the host then changes everything else.
#pragma omp target enter data map(to: a)
#pragma omp target
  for (int i = 1; i < 1 + n; i++)
    for (int j = 2; j < 5; j++)
      a[i][j] = 100 + 10 * i + j;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (!in2(i, j, n))
        a[i][j] = -(10 * i + j);
#pragma omp target update from(a[1:n][2:3])
  dump("2-D from a[1:n][2:3]", &a[0][0], N, M);

  // to: the host changes the section and its neighbours, moves the section, restores the
  // neighbours to the values the device holds; the device then copies all of a.
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = in2(i, j, n) ? 200 + 10 * i + j : -1;
#pragma omp target update if (n > 0) to(a[1:n][2:3])
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (!in2(i, j, n))
        a[i][j] = 10 * i + j;
#pragma omp target map(from: b)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      b[i][j] = a[i][j];
  dump("2-D to a[1:n][2:3]", &b[0][0], N, M);
#pragma omp target exit data map(delete: a)

  // 3-D: a middle and an inner dimension cut, then whole rows of the inner dimension.
  static double c[3][4][5];
#define V (100 * i + 10 * j + k)
#define ALL_C                                                                                  \
  for (int i = 0; i < 3; i++)                                                                  \
    for (int j = 0; j < 4; j++)                                                                \
      for (int k = 0; k < 5; k++)
  ALL_C c[i][j][k] = V;
#pragma omp target enter data map(to: c)
#pragma omp target
  ALL_C c[i][j][k] += 1000;
  ALL_C if (!((j >= 1 && j < 3 && k >= 1 && k < 4) || (i >= 1 && j == 3) || (i == 2 && k == 4)))
    c[i][j][k] = -V;
#pragma omp target update from(c[0:3][1:2][1:3])
#pragma omp target update from(c[1:2][3:1][0:5], c[2:1][0:4][4:])
  dump("3-D from", &c[0][0][0], 12, 5);
  ALL_C c[i][j][k] = V;
#pragma omp target update to(c)
  ALL_C c[i][j][k] = i < 2 && k >= 2 && k < 4 ? 5000 + V : -1;
#pragma omp target update to(c[0:2][0:4][2:2])
  ALL_C if (!(i < 2 && k >= 2 && k < 4)) c[i][j][k] = V;
#pragma omp target
  ALL_C c[i][j][k] *= 2;
#pragma omp target update from(c)
  dump("3-D to c[0:2][0:4][2:2]", &c[0][0][0], 12, 5);
#pragma omp target exit data map(delete: c)

  // Through a pointer to rows.
  double (*p)[M] = malloc(sizeof(double[N][M]));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      p[i][j] = i + j;
#pragma omp target enter data map(to: p[0:N])
#pragma omp target
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      p[i][j] = 50 + i + j;
  for (int i = 0; i < N; i++)
    p[i][0] = p[i][3] = p[i][4] = p[i][5] = -1;
#pragma omp target update from(p[0:N][1:2])
  dump("pointer from p[0:N][1:2]", &p[0][0], N, M);
#pragma omp target exit data map(delete: p[0:N])
  free(p);
  return 0;
}
