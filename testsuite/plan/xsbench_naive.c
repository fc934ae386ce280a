/* xsbench, naive form. XSBench's shape (OMPDart's evaluation): macroscopic cross-section
 * lookups over a large read-only table (per nuclide, an energy grid with NXS cross sections per
 * point; materials listing their nuclides and concentrations). Each lookup draws an energy and
 * a material from a hash of its index, binary-searches every nuclide's grid, interpolates and
 * sums the cross sections; XSBench's verification value (the index of the largest one) is
 * summed. Integer data, so every build computes the same bits. Time-stepped: BATCHES = 12
 * batches of lookups, one kernel each, the host printing every batch's verification sum.
 *
 * What a new user writes: every batch's kernel maps the whole table `tofrom`.
 * A planner should: hoist the table out of the batch loop as `to` only (it is never written
 * after initialization, on either side), so it crosses once; per batch only the reduction's
 * value moves (the host prints it at line 88).
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define NUC 48
#define GP 512
#define NXS 5
#define MATS 8
#define MAXNUC 16
#define BATCHES 12
#define LOOKUPS 640
#define EMAX (1 << 20)

static unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

int main(void)
{
    int *egrid = malloc(NUC * GP * sizeof *egrid), *xs = malloc(NUC * GP * NXS * sizeof *xs);
    int *mat_nuc = malloc(MATS * MAXNUC * sizeof *mat_nuc), *mat_count = malloc(MATS * sizeof *mat_count);
    int *conc = malloc(MATS * MAXNUC * sizeof *conc);
    for (int n = 0; n < NUC; n++) {
        int e = 0;
        for (int g = 0; g < GP; g++) {
            e += 1 + (int)(hash32(n * GP + g) % (2 * EMAX / GP - 1)); /* strictly increasing */
            egrid[n * GP + g] = e;
            for (int k = 0; k < NXS; k++)
                xs[(n * GP + g) * NXS + k] = (int)(hash32((n * GP + g) * NXS + k + 77) % 4096);
        }
    }
    for (int m = 0; m < MATS; m++) {
        mat_count[m] = m == 0 ? MAXNUC : 4 + m % 9;
        for (int j = 0; j < MAXNUC; j++) {
            mat_nuc[m * MAXNUC + j] = (m * 5 + j * 3) % NUC;
            conc[m * MAXNUC + j] = 1 + (int)(hash32(m * 31 + j) % 64);
        }
    }
    unsigned long total = 0;
    for (int b = 0; b < BATCHES; b++) {
        unsigned long verify = 0;
#pragma omp target teams distribute parallel for reduction(+ : verify) map(tofrom : egrid[0:NUC * GP], xs[0:NUC * GP * NXS], mat_nuc[0:MATS * MAXNUC], mat_count[0:MATS], conc[0:MATS * MAXNUC])
        for (int l = 0; l < LOOKUPS; l++) {
            unsigned h = hash32((unsigned)(b * LOOKUPS + l) * 2654435761u + 1u);
            int e = (int)(h % EMAX), m = (int)(hash32(h) % MATS);
            long macro[NXS] = {0, 0, 0, 0, 0};
            for (int j = 0; j < mat_count[m]; j++) {
                int n = mat_nuc[m * MAXNUC + j];
                const int *grid = egrid + n * GP;
                int lo = 0, hi = GP - 1;
                while (hi - lo > 1) { /* grid[lo] <= e < grid[hi], clamped at the ends */
                    int mid = (lo + hi) / 2;
                    if (grid[mid] <= e)
                        lo = mid;
                    else
                        hi = mid;
                }
                long f = e <= grid[lo] ? 0 : e >= grid[hi] ? 1024 : (long)(e - grid[lo]) * 1024 / (grid[hi] - grid[lo]);
                for (int k = 0; k < NXS; k++) {
                    long a = xs[(n * GP + lo) * NXS + k], c = xs[(n * GP + hi) * NXS + k];
                    macro[k] += conc[m * MAXNUC + j] * (a + (c - a) * f / 1024);
                }
            }
            int best = 0;
            for (int k = 1; k < NXS; k++)
                best = macro[k] > macro[best] ? k : best;
            verify += (unsigned long)(best + 1) * (unsigned long)(macro[best] % 997 + 1);
        }
        printf("batch %d verification %lu\n", b, verify);
        total += verify;
    }
    printf("xsbench nuclides %d gridpoints %d lookups %d: verification %lu\n", NUC, GP,
           BATCHES * LOOKUPS, total);
    free(egrid);
    free(xs);
    free(mat_nuc);
    free(mat_count);
    free(conc);
    return 0;
}
