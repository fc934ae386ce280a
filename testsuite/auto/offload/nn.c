/* In the shape of Rodinia nn: distances from a query point to every record (latitude,
 * longitude) computed in parallel through a static helper using sqrt, a max reduction for the
 * farthest record and a count of records within a radius; the k nearest are then picked
 * sequentially. Records live in malloc'ed arrays of a struct. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NREC 6000
#define K 5

struct record {
    double lat, lng;
};

static double dist(double lat1, double lng1, double lat2, double lng2)
{
    double dlat = lat1 - lat2, dlng = lng1 - lng2;
    return sqrt(dlat * dlat + dlng * dlng);
}

int main(void)
{
    struct record *rec = malloc(NREC * sizeof *rec);
    double *d = malloc(NREC * sizeof *d);
    for (int i = 0; i < NREC; i++) {
        rec[i].lat = ((i * 7919) % 1800) / 10.0 - 90.0;
        rec[i].lng = ((i * 104729) % 3600) / 10.0 - 180.0;
    }
    const double qlat = 30.25, qlng = -90.5, radius = 25.0;
    double farthest = 0.0;
    int within = 0;
#pragma omp parallel for reduction(max : farthest) reduction(+ : within) schedule(static, 64)
    for (int i = 0; i < NREC; i++) {
        d[i] = dist(rec[i].lat, rec[i].lng, qlat, qlng);
        if (d[i] > farthest)
            farthest = d[i];
        within += d[i] < radius;
    }
    int best[K];
    for (int k = 0; k < K; k++) {
        int b = -1;
        for (int i = 0; i < NREC; i++) {
            int taken = 0;
            for (int m = 0; m < k; m++)
                taken |= best[m] == i;
            if (!taken && (b < 0 || d[i] < d[b]))
                b = i;
        }
        best[k] = b;
    }
    printf("farthest=%.6f within %.1f: %d\n", farthest, radius, within);
    for (int k = 0; k < K; k++)
        printf("%d: record %d (%.1f, %.1f) distance %.6f\n", k, best[k], rec[best[k]].lat,
               rec[best[k]].lng, d[best[k]]);
    free(rec);
    free(d);
    return 0;
}
