#include <stdio.h>
#include <stdlib.h>

typedef struct { int n; double *data; } vec_t;

static double dot(const vec_t *a, const vec_t *b) {
    double sum = 0.0;
    int n = a->n;
    double *x = a->data, *y = b->data;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(tofrom: sum) reduction(+: sum)
    for (int i = 0; i < n; i++)
        sum += x[i] * y[i];
    return sum;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    vec_t a = { n, malloc(sizeof(double) * n) }, b = { .n = n, .data = calloc(n, sizeof *b.data) };
    for (int i = 0; i < n; ++i) { a.data[i] = i * 0.5; b.data[i] = (double)(n - i); }
#pragma omp target data map(to: a.data[0:n]) map(from: b.data[:n])
    {
#pragma omp target teams distribute parallel for num_teams(8) thread_limit(128) collapse(1)
        for (int i = 0; i < n; i++) b.data[i] = a.data[i] * 2.0;
#pragma omp target update from(b.data[0:n])
    }
    printf("%f\n", dot(&a, &b));
    free(a.data); free(b.data);
    return 0;
}
