/* accuracy, naive form. HeCBench's accuracy shape (OMPDart's evaluation): a big input (a
 * classifier's scores, ROWS x DIMS, and the labels) and a tiny output (one count). The top-k
 * accuracy is computed for k = 1..KMAX, one kernel per k: a row counts when fewer than k
 * classes outscore its label (ties go to the lower class). Repeated kernels over the same
 * read-only input, KMAX = 12 launches.
 *
 * What a new user writes: every launch maps the scores and labels `tofrom` (and the count).
 * A planner should: hoist the maps of `scores` and `labels` out of the k loop, as `to` only
 * (the kernel never writes them, and the host never writes them after initializing, so the
 * host's read at line 48 needs no copy back), so the big input crosses
 * once; per launch only the count moves (a reduction the host prints at line 43).
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define ROWS 4096
#define DIMS 32
#define KMAX 12

int main(void)
{
    int *scores = malloc(ROWS * DIMS * sizeof *scores), *labels = malloc(ROWS * sizeof *labels);
    unsigned seed = 12345;
    for (int r = 0; r < ROWS; r++) {
        labels[r] = r % DIMS;
        for (int c = 0; c < DIMS; c++) {
            seed = seed * 1103515245u + 12345u;
            scores[r * DIMS + c] = (int)((seed >> 16) % 1000) + (c == labels[r] ? 450 : 0);
        }
    }
    for (int k = 1; k <= KMAX; k++) {
        int hits = 0;
#pragma omp target teams distribute parallel for reduction(+ : hits) map(tofrom : scores[0:ROWS * DIMS], labels[0:ROWS], hits)
        for (int r = 0; r < ROWS; r++) {
            int l = labels[r], mine = scores[r * DIMS + l], better = 0;
            for (int c = 0; c < DIMS; c++) {
                int s = scores[r * DIMS + c];
                better += s > mine || (s == mine && c < l);
            }
            hits += better < k;
        }
        printf("top-%d accuracy: %d of %d (%d.%02d%%)\n", k, hits, ROWS, hits * 100 / ROWS,
               hits * 10000 / ROWS % 100);
    }
    long check = 0;
    for (int i = 0; i < ROWS * DIMS; i++)
        check += scores[i];
    printf("scores sum %ld\n", check);
    free(scores);
    free(labels);
    return 0;
}
