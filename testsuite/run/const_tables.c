/* Small read-only tables in .const (issue 16 item 7): const-qualified tables with constant
 * initializers are read from .const copies at -O2; tables the host or the device may change
 * (target update, device writes), tables of structs and tables over the budget stay global. */
#include <stdio.h>

#define N 600

/* mapped implicitly by the region: read from a .const copy */
const double stencil[5] = {0.0625, 0.25, 0.375, 0.25, 0.0625};
/* read by a declare target function through a const pointer parameter */
static const int perm[8] = {3, 0, 6, 1, 7, 2, 5, 4};
/* not const: the host changes it between regions, and a target update sends it */
#pragma omp declare target
int scale[4] = {1, 2, 3, 4};
static int pick(const int *t, int i) { return t[i & 7]; }
#pragma omp end declare target
/* not const: device code writes it */
int counts[8];
/* elements are structs: stays global */
struct pair { int a, b; };
const struct pair pairs[3] = {{1, 2}, {3, 4}, {5, 6}};
/* 48 KiB: over the unit's .const budget, stays global */
const int big[12288] = {[0] = 7, [12287] = 11};

static double in[N + 4], out[N];

static double checksum(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        s += out[i] * (1 + i % 7);
    return s;
}

int main(void)
{
    for (int i = 0; i < N + 4; i++)
        in[i] = (i % 13) * 0.5;
#pragma omp target teams distribute parallel for map(to : in) map(from : out)
    for (int i = 0; i < N; i++) {
        double s = 0;
        for (int k = 0; k < 5; k++)
            s += stencil[k] * in[i + k];
        out[i] = s;
    }
    printf("stencil %.6f\n", checksum());

#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++)
        out[i] = pick(perm, i) * scale[i & 3] + pairs[i % 3].b + big[i == 0 ? 12287 : 0];
    printf("tables %.6f\n", checksum());

    for (int k = 0; k < 4; k++)
        scale[k] = 10 - k;
#pragma omp target update to(scale)
#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++)
        out[i] = pick(perm, i + 1) * scale[i & 3];
    printf("updated %.6f\n", checksum());

#pragma omp target map(tofrom : counts)
    for (int i = 0; i < N; i++)
        counts[perm[i & 7]] += 1 + (i & 1);
    for (int k = 0; k < 8; k++)
        printf("%d ", counts[k]);
    printf("\n");
    return 0;
}
