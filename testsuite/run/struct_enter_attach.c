/* Struct member mapping as in the Examples' "structure mapping" section: map(tofrom: s.a)
 * alone, pointer members with attach after the parent is present, nested structs, arrays
 * of structs with a section over the array, several members through one pointer. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    double lo, hi;
} range_t;

typedef struct {
    int n;
    double *vals;
    range_t r;
    int counts[4];
} bucket_t;

int main(void)
{
    bucket_t b;
    b.n = 50;
    b.vals = malloc(sizeof(double) * b.n);
    for (int i = 0; i < b.n; i++)
        b.vals[i] = i * 0.5;
    b.r.lo = 3.0;
    b.r.hi = 17.0;
    for (int k = 0; k < 4; k++)
        b.counts[k] = 0;

    /* member only: the rest of b is not mapped */
#pragma omp target map(tofrom : b.counts) map(to : b.r)
    for (int k = 0; k < 4; k++)
        b.counts[k] = (int)(b.r.hi - b.r.lo) + k;
    printf("counts %d %d %d %d\n", b.counts[0], b.counts[1], b.counts[2], b.counts[3]);

    /* parent mapped by enter data, then its pointer member's section attached */
#pragma omp target enter data map(to : b)
#pragma omp target enter data map(to : b.vals[0:b.n])
#pragma omp target
    for (int i = 0; i < b.n; i++)
        if (b.vals[i] >= b.r.lo && b.vals[i] < b.r.hi)
            b.vals[i] = -b.vals[i];
#pragma omp target exit data map(from : b.vals[0:b.n])
#pragma omp target exit data map(release : b)
    double s = 0;
    int neg = 0;
    for (int i = 0; i < b.n; i++) {
        s += b.vals[i];
        neg += b.vals[i] < 0;
    }
    printf("s=%.2f neg=%d\n", s, neg);

    /* array of structs, section in the middle */
    range_t rs[10];
    for (int i = 0; i < 10; i++)
        rs[i] = (range_t){i, i * 2.0};
#pragma omp target teams distribute parallel for map(tofrom : rs[2:6])
    for (int i = 2; i < 8; i++) {
        double t = rs[i].lo;
        rs[i].lo = rs[i].hi;
        rs[i].hi = t + 100;
    }
    for (int i = 0; i < 10; i++)
        printf("(%.0f,%.0f)%c", rs[i].lo, rs[i].hi, i == 9 ? '\n' : ' ');

    /* two members of one struct through a pointer: one device copy of the struct */
    bucket_t *bp = &b;
#pragma omp target map(tofrom : bp->counts[1:2]) map(to : bp->n)
    for (int k = 1; k < 3; k++)
        bp->counts[k] += bp->n;
    printf("counts %d %d %d %d\n", b.counts[0], b.counts[1], b.counts[2], b.counts[3]);
    free(b.vals);
    return 0;
}
