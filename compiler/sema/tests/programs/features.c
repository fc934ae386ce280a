#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdbool.h>
#include <assert.h>
#include <time.h>
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <stdarg.h>

#define N 1024
typedef struct { double x, y, z; } vec3;
static inline vec3 vadd(vec3 a, vec3 b) { return (vec3){ a.x + b.x, a.y + b.y, a.z + b.z }; }
static double norm(vec3 v) { return sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

struct list { struct list *next; int val; };

static void logf_(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

void jacobi(int n, double (*restrict a)[n], double (*restrict b)[n]) {
#pragma omp target teams distribute parallel for collapse(2) map(to: a[0:n][0:n]) map(from: b[0:n][0:n])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            b[i][j] = 0.25 * (a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]);
}

int main(int argc, char *argv[]) {
    int *v = malloc(N * sizeof *v);
    if (!v) { perror("malloc"); return EXIT_FAILURE; }
    for (int i = 0; i < N; i++) v[i] = rand() % 100;
    qsort(v, N, sizeof(int), cmp);
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < N; i++) { h ^= (uint8_t)v[i]; h *= 1099511628211ULL; }
    double sum = 0;
#pragma omp parallel for reduction(+:sum) schedule(dynamic, 16)
    for (int i = 0; i < N; i++) sum += sin(v[i]) * cos(v[i]);
    vec3 p = vadd((vec3){1, 2, 3}, (vec3){.z = 4});
    char name[32];
    snprintf(name, sizeof name, "%s-%d", argc > 1 ? argv[1] : "x", (int)strlen(argv[0]));
    for (char *c = name; *c; ++c) *c = (char)toupper((unsigned char)*c);
    bool ok = isfinite(sum) && p.z == 7.0 && INT_MAX > 0;
    assert(ok);
    errno = 0;
    struct list nodes[3] = { { &nodes[1], 1 }, { &nodes[2], 2 }, { NULL, 3 } };
    int total = 0;
    for (struct list *l = nodes; l; l = l->next) total += l->val;
    double (*m)[64] = malloc(sizeof(double[64][64]));
    double (*m2)[64] = malloc(sizeof(double[64][64]));
    memset(m, 0, sizeof(double[64][64]));
    jacobi(64, m, m2);
    clock_t t = clock();
    printf("%s %f %llu %d %f %ld %d\n", name, sum, (unsigned long long)h, total, norm(p), (long)t, omp_get_max_threads());
    logf_("%d\n", ok);
    free(v); free(m); free(m2);
    return 0;
}
