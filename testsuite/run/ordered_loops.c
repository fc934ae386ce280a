// `ordered` regions in loops inside target regions: a loop with an `ordered` clause and a
// schedule that leaves the assignment free (none, dynamic, guided) runs its ordered regions in
// iteration order, with the rest of the body shared as usual; reductions and lastprivate
// still combine. (`nothing`, OpenMP 5.1, is accepted in the region.)
#include <stdio.h>

#define N 40

int main(void) {
    int seq[N], pos = 0, last = -1;
    long sum = 0;
#pragma omp target parallel for ordered reduction(+ : sum) lastprivate(last) \
    map(tofrom : seq, pos, sum, last) num_threads(8)
    for (int i = 0; i < N; i++) {
        int sq = i * i;
        sum += sq;
#pragma omp ordered
        {
            seq[pos] = i;
            pos++;
        }
        last = i;
    }
    int in_order = 1;
    for (int i = 0; i < N; i++)
        in_order &= seq[i] == i;
    printf("no schedule: pos %d in order %d sum %ld last %d\n", pos, in_order, sum, last);

    char text[N + 1];
    int len = 0;
#pragma omp target map(tofrom : text, len)
    {
#pragma omp parallel num_threads(4)
        {
#pragma omp for ordered schedule(dynamic, 3)
            for (int i = 0; i < 26; i++) {
#pragma omp ordered
                text[len++] = (char)('a' + i);
            }
#pragma omp nothing
#pragma omp single
            text[len] = '\0';
        }
    }
    printf("dynamic: %s (%d)\n", text, len);

    double acc = 1.0;
    int steps = 0;
#pragma omp target parallel for ordered schedule(guided) map(tofrom : acc, steps)
    for (int k = 1; k <= 12; k++) {
        double f = k % 3 == 0 ? 0.5 : 2.0;
#pragma omp ordered
        {
            // the order matters: a sum written after the product depends on each step
            acc = acc * f + k;
            steps++;
        }
    }
    printf("guided: acc %.4f steps %d\n", acc, steps);

    int grid[6][5], next = 0;
#pragma omp target parallel for collapse(2) ordered map(tofrom : grid, next)
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 5; c++) {
#pragma omp ordered
            grid[r][c] = next++;
        }
    int rows_ok = 1;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 5; c++)
            rows_ok &= grid[r][c] == r * 5 + c;
    printf("collapse(2): next %d in order %d\n", next, rows_ok);
    return 0;
}
