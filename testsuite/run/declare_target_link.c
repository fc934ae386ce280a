#include <stdio.h>
#define N 64
double table[N];
int counter;
#pragma omp declare target link(table, counter)

#pragma omp declare target
static double lookup(int i) { return table[i] * 2.0; }
static void bump(void) {
#pragma omp atomic
  counter++;
}
#pragma omp end declare target

int main(void) {
  for (int i = 0; i < N; i++) table[i] = i;
  counter = 5;
  double sum = 0;
  /* the region names neither variable: the map clauses make the device copies */
#pragma omp target teams distribute parallel for reduction(+: sum) map(to: table) map(tofrom: counter)
  for (int i = 0; i < N; i++) {
    sum += lookup(i);
    bump();
  }
  printf("sum %.1f counter %d\n", sum, counter);
  /* mapped by a data region; the region uses it directly and through a function */
#pragma omp target data map(tofrom: table)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) table[i] = lookup(i) + 1;
#pragma omp target update from(table)
    printf("after update %.1f %.1f\n", table[1], table[N - 1]);
  }
  /* implicit: a link variable the region names is mapped tofrom, scalars too */
#pragma omp target
  {
    counter += 100;
    bump();
  }
  printf("table %.1f %.1f counter %d\n", table[0], table[N - 1], counter);
  return 0;
}
