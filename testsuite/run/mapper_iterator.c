/* `declare mapper` whose map clauses take an `iterator(...)` modifier (OpenMP 5.1/5.2: an
 * iterator map-type modifier in a mapper's map clause): each row of a struct's pointer table
 * mapped by the mapper, through an explicit map and an implicit map
 * (gcc 12 parses no `declare mapper`: mapper_iterator.expected, the output OpenMP
 * prescribes). The mapper's iterator shares its name with a variable of the program. */
#include <stdio.h>
#include <stdlib.h>

struct Table {
  int n, m;
  double **rows;
};
#pragma omp declare mapper(struct Table t) map(t.n, t.m, t.rows[0:t.n]) \
    map(iterator(it = 0:t.n), tofrom: t.rows[it][0:t.m])

int main(void) {
  struct Table t;
  int it = 2; /* not the mapper's iterator */
  t.n = 5;
  t.m = 6;
  t.rows = malloc(sizeof(double *) * t.n);
  for (int i = 0; i < t.n; i++) {
    t.rows[i] = malloc(sizeof(double) * t.m);
    for (int j = 0; j < t.m; j++) t.rows[i][j] = i * 10 + j;
  }
  double sum = 0;
#pragma omp target map(tofrom: t) map(tofrom: sum)
  for (int i = 0; i < t.n; i++)
    for (int j = 0; j < t.m; j++) {
      sum += t.rows[i][j];
      t.rows[i][j] *= it;
    }
  printf("explicit: sum %g, row 3 after: %g %g\n", sum, t.rows[3][0], t.rows[3][5]);
  /* implicit map: the default mapper */
#pragma omp target
  for (int i = 0; i < t.n; i++) t.rows[i][i] = -1;
  printf("implicit: %g %g %g\n", t.rows[0][0], t.rows[4][4], t.rows[4][5]);
  for (int i = 0; i < t.n; i++) free(t.rows[i]);
  free(t.rows);
  return 0;
}
