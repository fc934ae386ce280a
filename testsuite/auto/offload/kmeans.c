/* In the shape of Rodinia kmeans: Lloyd iterations on malloc'ed points. The assignment step
 * (nearest centroid per point, squared distances in a static helper) is a parallel loop that
 * counts membership changes with a reduction; the centroid update is sequential. Coordinates are
 * small integers, so every sum is exact. */
#include <stdio.h>
#include <stdlib.h>

#define NPTS 3000
#define DIM 4
#define NCLUST 6
#define MAXITER 20

static double sqdist(const double *a, const double *b)
{
    double s = 0.0;
    for (int d = 0; d < DIM; d++)
        s += (a[d] - b[d]) * (a[d] - b[d]);
    return s;
}

int main(void)
{
    double *pts = malloc(NPTS * DIM * sizeof *pts);
    double *cent = malloc(NCLUST * DIM * sizeof *cent);
    int *member = malloc(NPTS * sizeof *member);
    for (int i = 0; i < NPTS; i++) {
        int blob = i % NCLUST;
        for (int d = 0; d < DIM; d++)
            pts[i * DIM + d] = blob * 6 + (d * 7 % 5) * blob + (i * (d + 3) * 31 % 17) - 8;
        member[i] = -1;
    }
    for (int c = 0; c < NCLUST; c++) /* initial centroids: points spread over the input */
        for (int d = 0; d < DIM; d++)
            cent[c * DIM + d] = pts[(c * 2) * DIM + d];
    int iter = 0, changed = NPTS;
    while (changed > 0 && iter < MAXITER) {
        changed = 0;
#pragma omp parallel for reduction(+ : changed) schedule(static)
        for (int i = 0; i < NPTS; i++) {
            int best = 0;
            double bd = sqdist(&pts[i * DIM], &cent[0]);
            for (int c = 1; c < NCLUST; c++) {
                double dd = sqdist(&pts[i * DIM], &cent[c * DIM]);
                if (dd < bd) {
                    bd = dd;
                    best = c;
                }
            }
            if (member[i] != best) {
                changed++;
                member[i] = best;
            }
        }
        double sums[NCLUST][DIM] = {{0}};
        int counts[NCLUST] = {0};
        for (int i = 0; i < NPTS; i++) {
            counts[member[i]]++;
            for (int d = 0; d < DIM; d++)
                sums[member[i]][d] += pts[i * DIM + d];
        }
        for (int c = 0; c < NCLUST; c++)
            if (counts[c] > 0)
                for (int d = 0; d < DIM; d++)
                    cent[c * DIM + d] = sums[c][d] / counts[c];
        iter++;
        printf("iteration %d: %d changed\n", iter, changed);
    }
    for (int c = 0; c < NCLUST; c++) {
        int n = 0;
        for (int i = 0; i < NPTS; i++)
            n += member[i] == c;
        printf("cluster %d: %d points, centre", c, n);
        for (int d = 0; d < DIM; d++)
            printf(" %.6f", cent[c * DIM + d]);
        printf("\n");
    }
    free(pts);
    free(cent);
    free(member);
    return 0;
}
