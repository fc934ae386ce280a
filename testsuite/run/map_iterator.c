// `iterator` modifiers in map/to/from clauses (OpenMP 5.1; gcc 12 cannot parse them:
// map_iterator.expected): rows of an array of pointers mapped and attached, updates with a
// step, a descending range, two iterators, an empty range, a typed iterator; a `target`
// mapping the rows of an `int **`. Host values the clauses do not name survive a `from`.
#include <stdio.h>
#include <stdlib.h>

#define R 5
#define C 8

static void dump(const char *tag, int *const *rows, const int *len) {
  printf("%s:", tag);
  for (int i = 0; i < R; i++) {
    printf(" [");
    for (int j = 0; j < len[i]; j++)
      printf("%s%d", j ? " " : "", rows[i][j]);
    printf("]");
  }
  printf("\n");
}

int main(void) {
  int len[R] = {3, 1, 4, 2, 5};
  int *rows[R];
  for (int i = 0; i < R; i++) {
    rows[i] = malloc(sizeof(int) * (size_t)len[i]);
    for (int j = 0; j < len[i]; j++)
      rows[i][j] = 10 * i + j;
  }
  int *saved[R];
  __builtin_memcpy(saved, rows, sizeof rows);
  int n = R;
#pragma omp target enter data map(to: rows, len)
#pragma omp target enter data map(iterator(i = 0:n), to: rows[i][0:len[i]])
  // every row doubled on the device, through the attached pointers
#pragma omp target
  for (int i = 0; i < R; i++)
    for (int j = 0; j < len[i]; j++)
      rows[i][j] *= 2;
  // rows 0, 2, 4 come back; 1 and 3 keep the host's -1
  for (int i = 1; i < R; i += 2)
    for (int j = 0; j < len[i]; j++)
      rows[i][j] = -1;
#pragma omp target update from(iterator(i = 0:n:2): rows[i][0:len[i]])
  dump("from 0:n:2", rows, len);
  // a descending range: rows 3, 2, 1 go to the device; a kernel copies every row out
  for (int i = 1; i < R - 1; i++)
    for (int j = 0; j < len[i]; j++)
      rows[i][j] = 100 + 10 * i + j;
#pragma omp target update to(iterator(int k = n - 2:0:-1): rows[k][0:len[k]])
  int flat[R * C] = {0};
#pragma omp target map(from: flat)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < len[i]; j++)
      flat[i * C + j] = rows[i][j];
  printf("to n-2:0:-1:");
  for (int k = 0; k < R * C; k++)
    printf(" %d", flat[k]);
  printf("\n");
  // the device adds 1000; an empty range moves nothing, a typed iterator moves every row
#pragma omp target
  for (int i = 0; i < R; i++)
    for (int j = 0; j < len[i]; j++)
      rows[i][j] += 1000;
#pragma omp target update from(iterator(unsigned long u = 0:R): rows[u][0:len[u]])
  dump("from unsigned long u", rows, len);
  int none = 0;
  for (int i = 0; i < R; i++)
    rows[i][0] = 7;
#pragma omp target update from(iterator(i = 0:none): rows[i][0:len[i]])
  dump("empty range", rows, len);
#pragma omp target exit data map(iterator(i = 0:n), release: rows[i][0:len[i]])
#pragma omp target exit data map(release: rows, len)
  int same = 1;
  for (int i = 0; i < R; i++)
    same &= rows[i] == saved[i];
  printf("host pointers kept: %d\n", same);

  // two iterators: every other column of every row of a 2-D array, from the device
  int m[R][C] = {{0}};
#pragma omp target enter data map(to: m)
#pragma omp target
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = 1 + i * C + j;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      if (i == 0 || j % 2)
        m[i][j] = 0;
#pragma omp target update from(iterator(i = 1:R, j = 0:C / 2): m[i][2 * j:1])
#pragma omp target exit data map(delete: m)
  long sum = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      sum += (long)m[i][j] * (i + j + 1);
  printf("m weighted sum %ld\n", sum);

  // a target region mapping the rows of a heap int ** through an iterator
  int **pp = malloc(sizeof(int *) * R);
  for (int i = 0; i < R; i++) {
    pp[i] = malloc(sizeof(int) * C);
    for (int j = 0; j < C; j++)
      pp[i][j] = i - j;
  }
#pragma omp target map(to: pp[0:R]) map(iterator(i = 0:R), tofrom: pp[i][0:C])
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      pp[i][j] = pp[i][j] * pp[i][j] + i;
  long total = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      total += pp[i][j] * (j + 1);
  printf("pp total %ld\n", total);
  for (int i = 0; i < R; i++)
    free(pp[i]), free(rows[i]);
  free(pp);
  return 0;
}
