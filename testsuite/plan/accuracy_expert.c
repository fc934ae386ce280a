/* accuracy, expert form: the computation of accuracy_naive.c with hand-written data movement:
 * one data region maps the scores and labels `to` around the k loop; each launch moves only
 * its reduction's count.
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
#pragma omp target data map(to : scores[0:ROWS * DIMS], labels[0:ROWS])
    for (int k = 1; k <= KMAX; k++) {
        int hits = 0;
#pragma omp target teams distribute parallel for reduction(+ : hits)
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
