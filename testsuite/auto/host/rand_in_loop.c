/* Must stay on the host: the parallel loop calls rand(), whose hidden state is shared by all
 * threads (srand seeds it before the loop). Which iteration gets which number depends on the
 * interleaving, but the multiset of numbers drawn does not, so only order-independent
 * aggregates are printed. */
#include <stdio.h>
#include <stdlib.h>

#define N 5000

int main(void)
{
    static int draw[N];
    srand(12345u);
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < N; i++)
        draw[i] = rand() % 1000;
    long sum = 0, sumsq = 0;
    int hist[10] = {0};
    for (int i = 0; i < N; i++) {
        sum += draw[i];
        sumsq += (long)draw[i] * draw[i];
        hist[draw[i] / 100]++;
    }
    printf("draws=%d sum=%ld sumsq=%ld\n", N, sum, sumsq);
    for (int b = 0; b < 10; b++)
        printf("[%d00, %d99]: %d\n", b, b, hist[b]);
    return 0;
}
