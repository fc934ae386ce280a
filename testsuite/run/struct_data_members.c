/* Struct members mapped one by one by a data construct (`target data`, `enter data`), then
 * used by a target region that maps nothing of the struct itself: the region finds the
 * members (and the pointer member attached to its mapped pointee) present, as real codes
 * (XSBench, RSBench) write it; clause order does not matter. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int n;
    double *a;
    int unused;
} vec_t;

typedef struct {
    int len;
    struct {
        double scale;
        double *p;
    } in;
} nested_t;

static double sum_vec(vec_t s)
{
    double sum = 0;
#pragma omp target map(to : s.a[0 : s.n]) map(tofrom : sum)
    for (int i = 0; i < s.n; i++)
        sum += s.a[i];
    return sum;
}

int main(void)
{
    vec_t s = {40, malloc(40 * sizeof(double)), -7};
    for (int i = 0; i < s.n; i++)
        s.a[i] = i * 0.25;

    double sum = 0;
#pragma omp target data map(to : s.n, s.a[0 : s.n])
    {
#pragma omp target map(tofrom : sum)
        for (int i = 0; i < s.n; i++)
            sum += s.a[i];
    }
    printf("sum %.2f\n", sum);

    /* the other clause order, and a parallel loop over the members */
    sum = 0;
#pragma omp target data map(to : s.a[0 : s.n]) map(to : s.n)
    {
#pragma omp target teams distribute parallel for reduction(+ : sum)
        for (int i = 0; i < s.n; i++)
            sum += 2 * s.a[i];
    }
    printf("sum %.2f\n", sum);

    /* enter data member by member, a region that writes through the pointer member, exit
     * data copying the section back and releasing the size */
#pragma omp target enter data map(to : s.n) map(to : s.a[0 : s.n])
#pragma omp target
    for (int i = 0; i < s.n; i++)
        s.a[i] = s.a[i] * 4 + s.n;
#pragma omp target exit data map(from : s.a[0 : s.n]) map(release : s.n)
    printf("a[0] %.2f a[39] %.2f unused %d\n", s.a[0], s.a[39], s.unused);

    /* a by-value copy of the struct in a function: its own storage, mapped by the region
     * there, its pointer attached to the section the caller mapped */
#pragma omp target data map(to : s.a[0 : s.n])
    printf("sum %.2f\n", sum_vec(s));

    /* nested members */
    nested_t t;
    t.len = 16;
    t.in.scale = 0.5;
    t.in.p = malloc(16 * sizeof(double));
    for (int i = 0; i < t.len; i++)
        t.in.p[i] = i;
#pragma omp target data map(tofrom : t.in.p[0 : t.len]) map(to : t.len, t.in.scale)
    {
#pragma omp target
        for (int i = 0; i < t.len; i++)
            t.in.p[i] *= t.in.scale;
    }
    printf("p[3] %.2f p[15] %.2f\n", t.in.p[3], t.in.p[15]);

    /* a pointer to the struct */
    vec_t *ps = &s;
    sum = 0;
#pragma omp target data map(to : ps->a[0 : ps->n]) map(to : ps->n)
    {
#pragma omp target map(tofrom : sum)
        for (int i = 0; i < ps->n; i++)
            sum += ps->a[i];
    }
    printf("sum %.2f\n", sum);
    free(s.a);
    free(t.in.p);
    return 0;
}
