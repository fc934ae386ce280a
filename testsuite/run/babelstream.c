/* BabelStream-style OpenMP target kernels: arrays allocated once with enter data on heap
 * pointers, copy/mul/add/triad/nstream kernels and a dot reduction, results checked. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define REPS 3

typedef struct {
    double *a, *b, *c;
    int size;
} stream_t;

static void stream_init(stream_t *s, int n)
{
    s->size = n;
    s->a = malloc(sizeof(double) * n);
    s->b = malloc(sizeof(double) * n);
    s->c = malloc(sizeof(double) * n);
    double *a = s->a, *b = s->b, *c = s->c;
#pragma omp target enter data map(alloc : a[0:n], b[0:n], c[0:n])
#pragma omp target teams distribute parallel for simd
    for (int i = 0; i < n; i++) {
        a[i] = 0.125;
        b[i] = 0.25;
        c[i] = 0.0;
    }
}

static void copy(stream_t *s)
{
    int n = s->size;
    double *a = s->a, *c = s->c;
#pragma omp target teams distribute parallel for simd
    for (int i = 0; i < n; i++)
        c[i] = a[i];
}

static void mul(stream_t *s, double k)
{
    int n = s->size;
    double *b = s->b, *c = s->c;
#pragma omp target teams distribute parallel for simd
    for (int i = 0; i < n; i++)
        b[i] = k * c[i];
}

static void add(stream_t *s)
{
    int n = s->size;
    double *a = s->a, *b = s->b, *c = s->c;
#pragma omp target teams distribute parallel for simd
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

static void triad(stream_t *s, double k)
{
    int n = s->size;
    double *a = s->a, *b = s->b, *c = s->c;
#pragma omp target teams distribute parallel for simd
    for (int i = 0; i < n; i++)
        a[i] = b[i] + k * c[i];
}

static double dot(stream_t *s)
{
    int n = s->size;
    double *a = s->a, *b = s->b;
    double sum = 0.0;
#pragma omp target teams distribute parallel for simd map(tofrom : sum) reduction(+ : sum)
    for (int i = 0; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

static void stream_free(stream_t *s)
{
    int n = s->size;
    double *a = s->a, *b = s->b, *c = s->c;
#pragma omp target exit data map(from : a[0:n], b[0:n], c[0:n])
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    stream_t s;
    stream_init(&s, N);
    double k = 0.5, d = 0;
    for (int r = 0; r < REPS; r++) {
        copy(&s);
        mul(&s, k);
        add(&s);
        triad(&s, k);
        d = dot(&s);
    }
    printf("dot=%.9e\n", d);
    double ga = 0.125, gb = 0.25, gc = 0.0;
    for (int r = 0; r < REPS; r++) {
        gc = ga;
        gb = k * gc;
        gc = ga + gb;
        ga = gb + k * gc;
    }
    printf("gold a=%.9e b=%.9e c=%.9e\n", ga, gb, gc);
    double *a = s.a;
    int n = s.size;
    double err = 0;
#pragma omp target teams distribute parallel for reduction(max : err) map(tofrom : err)
    for (int i = 0; i < n; i++)
        err = a[i] - ga > err ? a[i] - ga : (ga - a[i] > err ? ga - a[i] : err);
    printf("maxerr=%.3e\n", err);
    stream_free(&s);
    return 0;
}
