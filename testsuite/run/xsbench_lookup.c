/* XSBench-style macroscopic cross-section lookups: per-nuclide energy grids searched by
 * binary search, interpolation, materials with nuclide lists, a hash-free verification sum. */
#include <stdio.h>
#include <stdlib.h>

#define NUC 12
#define GP 64
#define MATS 4
#define LOOKUPS 2000

typedef struct {
    double energy;
    double total, elastic, absorb, fission, nu;
} grid_t;

static unsigned long long lcg(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 11;
}
#pragma omp declare target to(lcg)

#pragma omp declare target
static long grid_search(const grid_t *g, int n, double e)
{
    long lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (g[mid].energy > e)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

static void micro_xs(const grid_t *g, int n, double e, double xs[5])
{
    long idx = grid_search(g, n, e);
    if (idx == n - 1)
        idx--;
    const grid_t *lo = &g[idx], *hi = &g[idx + 1];
    double f = (hi->energy - e) / (hi->energy - lo->energy);
    xs[0] = hi->total - f * (hi->total - lo->total);
    xs[1] = hi->elastic - f * (hi->elastic - lo->elastic);
    xs[2] = hi->absorb - f * (hi->absorb - lo->absorb);
    xs[3] = hi->fission - f * (hi->fission - lo->fission);
    xs[4] = hi->nu - f * (hi->nu - lo->nu);
}
#pragma omp end declare target

int main(void)
{
    grid_t *grids = malloc(sizeof(grid_t) * NUC * GP);
    unsigned long long seed = 42;
    for (int n = 0; n < NUC; n++)
        for (int g = 0; g < GP; g++) {
            grid_t *p = &grids[n * GP + g];
            p->energy = (g + (lcg(&seed) % 1000) / 1000.0) / GP;
            p->total = (lcg(&seed) % 4096) / 256.0;
            p->elastic = (lcg(&seed) % 4096) / 512.0;
            p->absorb = (lcg(&seed) % 4096) / 1024.0;
            p->fission = (lcg(&seed) % 4096) / 2048.0;
            p->nu = (lcg(&seed) % 4096) / 4096.0;
        }
    int num_nucs[MATS] = {3, 5, 7, 12};
    int mats[MATS][NUC];
    double conc[MATS][NUC];
    for (int m = 0; m < MATS; m++)
        for (int k = 0; k < NUC; k++) {
            mats[m][k] = (k * 5 + m) % NUC;
            conc[m][k] = (k + 1) * 0.125;
        }
    int *verify = malloc(sizeof(int) * LOOKUPS);
#pragma omp target teams distribute parallel for map(to : grids[0:NUC * GP], num_nucs, mats, conc) \
    map(from : verify[0:LOOKUPS])
    for (int i = 0; i < LOOKUPS; i++) {
        unsigned long long s = 1000 + i * 7919ULL;
        double e = (lcg(&s) % 100000) / 100000.0;
        int mat = lcg(&s) % MATS;
        double macro[5] = {0, 0, 0, 0, 0};
        for (int j = 0; j < num_nucs[mat]; j++) {
            double xs[5];
            int nuc = mats[mat][j];
            micro_xs(&grids[nuc * GP], GP, e, xs);
            for (int k = 0; k < 5; k++)
                macro[k] += xs[k] * conc[mat][j];
        }
        int maxk = 0;
        for (int k = 1; k < 5; k++)
            if (macro[k] > macro[maxk])
                maxk = k;
        verify[i] = maxk + 1;
    }
    long vh = 0;
    for (int i = 0; i < LOOKUPS; i++)
        vh += verify[i] * (i % 97 + 1);
    printf("verification=%ld\n", vh);
    free(grids);
    free(verify);
    return 0;
}
