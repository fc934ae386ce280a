// `target update to/from` of strided sections (OpenMP 5.0 `a[lo:len:stride]`): only the
// section's elements move, so host values between them survive a `from` and device values
// between them survive a `to`. Strides 2, 3 and 4, a 2-D row section, strided rows of a 2-D
// array, a heap pointer, a stride written as 1 and an empty section (gcc 12 rejects strided
// sections: update_strided.expected).
#include <stdio.h>
#include <stdlib.h>

#define N 20
#define R 4
#define C 12

static int mk[R * C];

// mk[i * C + j] = 1 on rows lo_r + k * st_r (k < n_r), columns lo_c + k * st_c (k < n_c)
static void sec(int lo_r, int n_r, int st_r, int lo_c, int n_c, int st_c) {
  for (int k = 0; k < R * C; k++)
    mk[k] = 0;
  for (int i = 0; i < n_r; i++)
    for (int j = 0; j < n_c; j++)
      mk[(lo_r + i * st_r) * C + lo_c + j * st_c] = 1;
}

static void dump(const char *tag, const int *v, int n) {
  printf("%s:", tag);
  for (int i = 0; i < n; i++)
    printf(" %d", v[i]);
  printf("\n");
}

// the device copy of v (present) becomes base + i everywhere
static void dev_fill(int *v, int n, int base) {
#pragma omp target map(alloc: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] = base + i;
}

// out = the device copy of v
static void dev_copy(const int *v, int *out, int n) {
#pragma omp target map(alloc: v[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = v[i];
}

int main(void) {
  int a[N], b[R * C];
  int m[R][C];
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target enter data map(to: a)
  // from, stride 2: the device's values at 2, 4, ..., 10; the host's elsewhere
  dev_fill(a, N, 100);
  sec(0, 1, 1, 2, 5, 2);
  for (int i = 0; i < N; i++)
    if (!mk[i])
      a[i] = -i;
#pragma omp target update from(a[2:5:2])
  dump("from a[2:5:2]", a, N);
  // to, stride 3: the host's values at 0, 3, ..., 18 reach the device, nothing else does
  sec(0, 1, 1, 0, 7, 3);
  for (int i = 0; i < N; i++)
    a[i] = mk[i] ? 200 + i : -1;
#pragma omp target update to(a[0:7:3])
  for (int i = 0; i < N; i++)
    if (!mk[i])
      a[i] = 100 + i;
  dev_copy(a, b, N);
  dump("to a[0:7:3]", b, N);
  // from, stride 3 with an offset; a stride written as 1; an empty section
  dev_fill(a, N, 300);
  sec(0, 1, 1, 1, 6, 3);
  for (int i = 0; i < N; i++)
    if (!mk[i])
      a[i] = (i >= 17 && i < 20) ? 300 + i : -i;
  int n = 0;
#pragma omp target update from(a[1:6:3]) from(a[17:3:1]) from(a[0:n:2])
  dump("from a[1:6:3] a[17:3:1]", a, N);
#pragma omp target exit data map(delete: a)

  // 2-D: a row section with a stride, then strided rows and columns
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = 0;
#pragma omp target enter data map(to: m)
  dev_fill(&m[0][0], R * C, 1000);
  sec(2, 1, 1, 1, 4, 3);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      if (!mk[i * C + j])
        m[i][j] = -1;
#pragma omp target update from(m[2][1:4:3])
  dump("from m[2][1:4:3]", &m[0][0], R * C);
  sec(0, 2, 2, 0, 6, 2);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = mk[i * C + j] ? 2000 + C * i + j : -1;
#pragma omp target update to(m[0:2:2][0:6:2])
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      if (!mk[i * C + j])
        m[i][j] = 1000 + C * i + j;
  dev_copy(&m[0][0], b, R * C);
  dump("to m[0:2:2][0:6:2]", b, R * C);
#pragma omp target exit data map(delete: m)
  // a heap pointer, stride 4
  int *p = malloc(N * sizeof *p);
  for (int i = 0; i < N; i++)
    p[i] = i;
#pragma omp target enter data map(to: p[0:N])
  dev_fill(p, N, 500);
  sec(0, 1, 1, 3, 4, 4);
  for (int i = 0; i < N; i++)
    if (!mk[i])
      p[i] = -i;
#pragma omp target update from(p[3:4:4])
  dump("from p[3:4:4]", p, N);
#pragma omp target exit data map(delete: p[0:N])
  free(p);
  return 0;
}
