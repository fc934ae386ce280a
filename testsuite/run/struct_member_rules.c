// Struct members in map clauses as real codes write them (OpenMP 5.2 5.8.3): a pointer
// member's section alone (the struct storage the region uses is mapped and the pointer
// attached), with a scalar member, with the whole struct in either clause order, through a
// pointer (`p->a[0:n]`), nested members (`t.in.p[0:n]`), an array of structs with pointer
// members, and a struct passed by value to a device function.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *a;
  int m;
} vec_t;

typedef struct {
  int len;
  struct {
    long k;
    double *p;
  } in;
} nest_t;

#pragma omp declare target
static double weighted(vec_t v, int i) { return v.a[i] * v.m; }
#pragma omp end declare target

int main(void) {
  vec_t s;
  s.n = 100;
  s.m = 3;
  s.a = malloc(sizeof(double) * s.n);
  for (int i = 0; i < s.n; i++) s.a[i] = i * 0.5;

  double sum = 0;
#pragma omp target teams distribute parallel for map(to : s.a[ : s.n]) map(tofrom : sum) reduction(+ : sum)
  for (int i = 0; i < s.n; i++) sum += s.a[i];
  printf("section alone: %.2f\n", sum);

  sum = 0;
#pragma omp target teams distribute parallel for map(to : s.a[ : s.n]) map(to : s.m) reduction(+ : sum)
  for (int i = 0; i < s.n; i++) sum += s.a[i] * s.m;
  printf("with a member: %.2f\n", sum);

  sum = 0;
#pragma omp target teams distribute parallel for map(to : s.a[ : s.n]) map(to : s) reduction(+ : sum)
  for (int i = 0; i < s.n; i++) sum += weighted(s, i);
  printf("section then struct: %.2f\n", sum);

  sum = 0;
#pragma omp target teams distribute parallel for map(to : s) map(to : s.a[ : s.n]) reduction(+ : sum)
  for (int i = 0; i < s.n; i++) sum += weighted(s, i) + s.n;
  printf("struct then section: %.2f\n", sum);

  // writes through the attached pointer, a member written back
#pragma omp target map(tofrom : s.a[0 : s.n], s.m)
  {
    for (int i = 0; i < s.n; i++) s.a[i] += 1.0;
    s.m = 7;
  }
  printf("written: %.2f %.2f m=%d n=%d\n", s.a[0], s.a[s.n - 1], s.m, s.n);

  // through a pointer to the struct
  vec_t *p = &s;
  sum = 0;
#pragma omp target teams distribute parallel for map(to : p->a[0 : p->n]) reduction(+ : sum)
  for (int i = 0; i < p->n; i++) sum += p->a[i];
  printf("pointer: %.2f\n", sum);

  // nested members
  nest_t t;
  t.len = 64;
  t.in.k = 5;
  t.in.p = malloc(sizeof(double) * t.len);
  for (int i = 0; i < t.len; i++) t.in.p[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : t.in.p[0 : t.len])
  for (int i = 0; i < t.len; i++) t.in.p[i] = t.in.p[i] * t.in.k + t.len;
  printf("nested: %.1f %.1f\n", t.in.p[1], t.in.p[63]);

  // an array of structs with pointer members, each section attached to its element
  vec_t items[3];
  for (int k = 0; k < 3; k++) {
    items[k].n = 10 * (k + 1);
    items[k].m = k + 1;
    items[k].a = malloc(sizeof(double) * items[k].n);
    for (int i = 0; i < items[k].n; i++) items[k].a[i] = k + i;
  }
  double tot[3] = {0, 0, 0};
#pragma omp target teams distribute map(to : items[0 : 3]) map(to : items[0].a[0 : 10], items[1].a[0 : 20], items[2].a[0 : 30]) map(tofrom : tot)
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < items[k].n; i++) tot[k] += items[k].a[i] * items[k].m;
  printf("items: %.1f %.1f %.1f\n", tot[0], tot[1], tot[2]);

  for (int k = 0; k < 3; k++) free(items[k].a);
  free(t.in.p);
  free(s.a);
  return 0;
}
