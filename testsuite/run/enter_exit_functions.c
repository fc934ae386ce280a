/* Unstructured data lifetime across functions: `target enter data` in an init function, kernels
 * in other functions that rely on the data being present, `target update` in between, and
 * `target exit data` with from/release/delete in a finalize function. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

struct field {
    int n;
    double *val;
    double *tmp;
};

static void field_init(struct field *f, int n)
{
    f->n = n;
    f->val = malloc(n * sizeof *f->val);
    f->tmp = malloc(n * sizeof *f->tmp);
    for (int i = 0; i < n; i++)
        f->val[i] = (i % 50) * 0.02;
    double *val = f->val, *tmp = f->tmp;
#pragma omp target enter data map(to : val[0:n]) map(alloc : tmp[0:n])
}

static void field_smooth(struct field *f)
{
    int n = f->n;
    double *val = f->val, *tmp = f->tmp;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
        double l = val[i > 0 ? i - 1 : i], r = val[i < n - 1 ? i + 1 : i];
        tmp[i] = 0.25 * l + 0.5 * val[i] + 0.25 * r;
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
        val[i] = tmp[i];
}

static double field_sum(struct field *f)
{
    int n = f->n;
    double *val = f->val, s = 0.0;
#pragma omp target update from(val[0:n])
    for (int i = 0; i < n; i++)
        s += val[i];
    return s;
}

static void field_free(struct field *f)
{
    int n = f->n;
    double *val = f->val, *tmp = f->tmp;
#pragma omp target exit data map(from : val[0:n]) map(delete : tmp[0:n])
    free(f->val);
    free(f->tmp);
}

int main(void)
{
    struct field f;
    field_init(&f, N);
    for (int step = 0; step < 6; step++) {
        field_smooth(&f);
        if (step % 2 == 1)
            printf("step %d sum=%.10g\n", step, field_sum(&f));
    }
    f.val[0] = 5.0; /* host change, pushed explicitly */
    double *val = f.val;
#pragma omp target update to(val[0:1])
    field_smooth(&f);
    double sum = field_sum(&f); /* brings val back: read val[1] only after it */
    printf("after push sum=%.10g val[1]=%.10g\n", sum, f.val[1]);
    field_free(&f);
    return 0;
}
