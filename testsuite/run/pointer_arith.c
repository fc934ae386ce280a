/* Pointer arithmetic in kernels: pointer increments in a serial loop, pointer differences,
 * pointers to struct members and into the middle of an array, const and restrict pointers,
 * sizeof and offsetof. */
#include <stdio.h>
#include <stddef.h>

#define N 4096

struct rec {
    char tag;
    double w;
    int v[3];
};

static void axpy_restrict(int n, double *restrict y, const double *restrict x)
{
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] += 0.5 * x[i];
}

int main(void)
{
    static double x[N], y[N];
    static struct rec recs[256];
    for (int i = 0; i < N; i++) {
        x[i] = i % 16;
        y[i] = 1.0;
    }
    for (int i = 0; i < 256; i++)
        recs[i] = (struct rec){(char)('a' + i % 26), i * 0.5, {i, -i, i * i}};
    axpy_restrict(N / 2, y + N / 2, x); /* second half of y, first half of x */
    long diffs = 0, sizes = 0;
#pragma omp target map(tofrom : x, recs, diffs, sizes)
    {
        double *p = x, *end = x + N;
        double acc = 0.0;
        while (p < end) {
            acc += *p;
            p += 3;
        }
        diffs = (long)(p - x) + (long)acc;
        const struct rec *r = &recs[10];
        const int *iv = r->v;
        diffs += iv[2] + (long)(&recs[200] - r);
        int *tail = &recs[255].v[1];
        *tail += 1000;
        sizes = (long)sizeof(struct rec) * 1000 + (long)offsetof(struct rec, v) * 10 +
                (long)sizeof recs[0].v;
    }
    double sy = 0;
    for (int i = 0; i < N; i++)
        sy += y[i];
    printf("sy=%.6f diffs=%ld sizes=%ld recs[255].v[1]=%d\n", sy, diffs, sizes, recs[255].v[1]);
    return 0;
}
