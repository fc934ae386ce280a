typedef int (*cmp_fn)(const void *, const void *);
typedef unsigned long size_t;
extern void qsort(void *base, size_t n, size_t sz, cmp_fn cmp) __attribute__((nonnull(1, 4)));
static inline int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
_Static_assert(sizeof(int) == 4, "int is 32 bits");
struct node { struct node *next; char name[16]; _Alignas(8) long payload[]; };
void sort(int *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_int);
    const char *s = "multi" "piece" L"?"[0] ? "x" : u8"y";
    int m[2][3] = { [0] = { 1, 2, 3 }, [1][2] = 9 };
    struct node nd = { .name = "root", .next = 0 };
    (void)s; (void)m; (void)nd;
    for (size_t i = 0, j = n - 1; i < j; i++, j--) { int t = v[i]; v[i] = v[j]; v[j] = t; }
    goto out;
out:
    return;
}
#pragma omp declare target
int device_fn(int x) { return x * 2 + _Generic(x, int: 1, default: 0); }
#pragma omp end declare target
void host(int n, float *restrict p) {
    int count = 0;
#pragma omp parallel for simd reduction(+: count) if(parallel: n > 100) private(n) schedule(dynamic)
    for (int i = 0; i < 100; i++) count += p[i] > 0.0f;
#pragma omp parallel
    {
#pragma omp single nowait
        p[0] = count;
#pragma omp barrier
#pragma omp atomic
        count++;
#pragma omp critical(upd)
        { p[1] += 1; }
    }
}
