/* Unstructured device data: target enter data / exit data keep a heap-allocated grid resident
 * across function calls (as a library would), with map(to/alloc/from/release/delete),
 * omp_target_is_present checks that hold on any device, and always-update semantics. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

typedef struct { int n; double *data; } field;

static field field_create(int n)
{
    double *d = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        d[i] = (double)(i % 8);
#pragma omp target enter data map(to : d[0:n])
    return (field){n, d};
}

static void field_scale(field *f, double s)
{
    double *d = f->data;
    int n = f->n;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
        d[i] *= s; /* d is already present: no transfer here */
}

static void field_shift(field *f, double by)
{
    double *d = f->data;
    int n = f->n;
#pragma omp target teams distribute parallel for map(alloc : d[0:n]) /* present: nothing is allocated */
    for (int i = 0; i < n; i++)
        d[i] += by;
}

static void field_destroy(field *f, double *sum_out)
{
    double *d = f->data;
    int n = f->n;
#pragma omp target exit data map(from : d[0:n])
    double s = 0;
    for (int i = 0; i < n; i++)
        s += d[i];
    *sum_out = s;
    free(f->data);
}

int main(void)
{
    field f = field_create(1000);
    int dev = omp_get_default_device();
    int present = omp_target_is_present(f.data, dev);
    field_scale(&f, 2.0);
    field_shift(&f, 0.5);
    field_scale(&f, 10.0);
    double sum;
    field_destroy(&f, &sum);
    printf("field sum=%.6g, was present after enter data: %d\n", sum, present);

    /* scratch buffer allocated on the device, reference counted by nested enter/exit */
    int n = 256;
    int *scratch = calloc((size_t)n, sizeof *scratch);
#pragma omp target enter data map(alloc : scratch[0:n])
#pragma omp target enter data map(to : scratch[0:n]) /* count 2: no copy, already present */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
        scratch[i] = i * 3;
#pragma omp target exit data map(release : scratch[0:n]) /* count back to 1 */
#pragma omp target update from(scratch[0:n])
    long s = 0;
    for (int i = 0; i < n; i++)
        s += scratch[i];
#pragma omp target exit data map(delete : scratch[0:n])
    printf("scratch sum after update=%ld\n", s);
    free(scratch);

    /* map(always, to:) refreshes the device copy even though it is present */
    double k[8] = {1, 1, 1, 1, 1, 1, 1, 1}, r[8];
#pragma omp target enter data map(to : k)
    for (int i = 0; i < 8; i++)
        k[i] = i;
#pragma omp target map(always, to : k) map(from : r)
    for (int i = 0; i < 8; i++)
        r[i] = k[i] * k[i];
#pragma omp target exit data map(delete : k)
    printf("always-to: r[3]=%.6g r[7]=%.6g\n", r[3], r[7]);
    return 0;
}
