/* Must stay on the host: a critical section inside the loop prints with printf when an
 * iteration finds the key it is looking for. The key occurs exactly once, so exactly one line
 * is printed from inside the loop, whatever the thread count. */
#include <stdio.h>

#define N 6000

int main(void)
{
    static int keys[N];
    for (int i = 0; i < N; i++)
        keys[i] = (int)(((long)i * 2654435761u) % 1000003);
    const int wanted = keys[4321];
    int hits = 0;
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < N; i++) {
        sum += keys[i] % 1000;
        if (keys[i] == wanted) {
#pragma omp critical
            {
                printf("found key %d at index %d\n", wanted, i);
                hits++;
            }
        }
    }
    printf("hits=%d sum=%ld\n", hits, sum);
    return 0;
}
