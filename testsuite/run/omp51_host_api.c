/* OpenMP 5.1/5.2 host routines libgomp 12 lacks (omp51_host_api.expected: the output the
 * specification prescribes): async copies ordered by depend objects, mapped pointers. */
#include <omp.h>
#include <stdio.h>

#define N 64
#define R 6
#define C 8

static double a[N], b[N];
static int grid[R][C], sub[3][4];

static const char *verdict(int ok) { return ok ? "as specified" : "WRONG"; }

int main(void)
{
    int dev = omp_get_default_device(), host = omp_get_initial_device();
    double *d = omp_target_alloc(sizeof(double) * N, dev);
    int *dg = omp_target_alloc(sizeof(int) * 3 * 4, dev);
    double sum = 0;
    int rc = 0, corner = 0;
    omp_depend_t in_a, out_d, in_d, out_b;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out : a)
        for (int i = 0; i < N; i++)
            a[i] = i + 0.5;
#pragma omp depobj(in_a) depend(in : a)
#pragma omp depobj(out_d) depend(out : d)
        omp_depend_t deps[2] = {in_a, out_d};
        rc |= omp_target_memcpy_async(d, a, sizeof(double) * N, 0, 0, dev, host, 2, deps);
#pragma omp taskwait depend(in : d)
#pragma omp target is_device_ptr(d) device(dev)
        for (int i = 0; i < N; i++)
            d[i] *= 2;
#pragma omp depobj(in_d) depend(in : d)
#pragma omp depobj(out_b) depend(out : b)
        omp_depend_t back[2] = {in_d, out_b};
        rc |= omp_target_memcpy_async(b, d, sizeof(double) * N, 0, 0, host, dev, 2, back);
#pragma omp task depend(in : b) shared(sum)
        for (int i = 0; i < N; i++)
            sum += b[i];
#pragma omp taskwait
    }
    printf("async copies: rc=%d sum=%.1f b[5]=%.1f\n", rc, sum, b[5]);

    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            grid[i][j] = 10 * i + j;
    size_t vol[2] = {3, 4}, zero[2] = {0, 0}, from[2] = {2, 3};
    size_t gdim[2] = {R, C}, sdim[2] = {3, 4};
    rc = omp_target_memcpy_rect_async(dg, grid, sizeof(int), 2, vol, zero, from, sdim, gdim, dev,
                                      host, 0, NULL);
#pragma omp taskwait
#pragma omp target is_device_ptr(dg) device(dev)
    for (int i = 0; i < 12; i++)
        dg[i] += 1000;
    omp_depend_t out_sub;
#pragma omp depobj(out_sub) depend(out : sub)
    rc |= omp_target_memcpy_rect_async(sub, dg, sizeof(int), 2, vol, zero, zero, sdim, sdim, host,
                                       dev, 1, &out_sub);
#pragma omp task depend(in : sub) shared(corner)
    corner = sub[2][3];
#pragma omp taskwait
    printf("rect async: rc=%d sub[0][0]=%d corner=%d dims=%d\n", rc, sub[0][0], corner,
           omp_target_memcpy_rect_async(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, dev, host,
                                        0, NULL) >= 3);
#pragma omp depobj(in_a) destroy
#pragma omp depobj(out_sub) destroy

    /* mapped: the device address; not mapped: NULL (the array itself on the host) */
#pragma omp target enter data map(to : a) device(dev)
    double *pa = omp_get_mapped_ptr(a, dev);
    double *pb = omp_get_mapped_ptr(b, dev);
    double seen = 0;
#pragma omp target is_device_ptr(pa) map(from : seen) device(dev)
    seen = pa[7];
    printf("mapped ptr: %s seen=%.1f\n", verdict(pa != NULL && (dev != host || pa == a)), seen);
    printf("unmapped ptr: %s\n", verdict(dev == host ? pb == b : pb == NULL));
    printf("initial device: %s\n", verdict(omp_get_mapped_ptr(b, host) == b));
#pragma omp target exit data map(delete : a) device(dev)

    /* accessible host storage is usable as it is */
    int acc = omp_target_is_accessible(b, sizeof b, dev);
    double first = b[1], *pbh = b;
#pragma omp target is_device_ptr(pbh) map(from : first) device(dev) if (acc)
    first = pbh[1];
    printf("accessible: %s host=%d\n", verdict(first == b[1]),
           omp_target_is_accessible(b, sizeof b, host));

    /* explicit tasks */
    int outside = omp_in_explicit_task(), in_task = -1, in_undeferred = -1, in_par = -1,
        in_nested = -1, in_loop = 0, in_implicit = -1;
#pragma omp task shared(in_task)
    in_task = omp_in_explicit_task();
#pragma omp task if (0) shared(in_undeferred)
    in_undeferred = omp_in_explicit_task();
#pragma omp parallel num_threads(2) shared(in_implicit, in_nested, in_par)
    {
#pragma omp single
        in_implicit = omp_in_explicit_task();
#pragma omp single
#pragma omp task shared(in_nested, in_par)
        {
#pragma omp parallel num_threads(1)
            in_nested = omp_in_explicit_task();
            in_par = omp_in_explicit_task();
        }
    }
#pragma omp taskloop reduction(+ : in_loop)
    for (int i = 0; i < 10; i++)
        in_loop += omp_in_explicit_task();
    printf("explicit task: outside=%d task=%d undeferred=%d implicit=%d nested parallel=%d "
           "after it=%d taskloop=%d\n",
           outside, in_task, in_undeferred, in_implicit, in_nested, in_par, in_loop);
    omp_target_free(dg, dev);
    omp_target_free(d, dev);
    return 0;
}
