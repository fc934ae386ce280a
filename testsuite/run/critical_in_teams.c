/* `critical` inside a combined teams construct (serialising across the whole device), guarding
 * a non-atomic multi-word update: a running min with its index, and a 64-bit pair counter. */
#include <stdio.h>

#define N 3000

int main(void)
{
    static double v[N];
    for (int i = 0; i < N; i++)
        v[i] = ((i * 7919) % 3001) * 0.5 - 700.25;
    double best = 1e30;
    int best_i = -1;
    long pairs = 0, pair_sum = 0;
#pragma omp target teams distribute parallel for map(to : v) map(tofrom : best, best_i, pairs, \
                                                                     pair_sum)
    for (int i = 0; i < N; i++) {
        double a = v[i] < 0 ? -v[i] : v[i];
        if (i % 10 == 0) {
#pragma omp critical(bestlock)
            {
                if (a < best || (a == best && i < best_i)) {
                    best = a;
                    best_i = i;
                }
            }
        }
        if (i % 3 == 0) {
#pragma omp critical
            {
                pairs += 1;
                pair_sum += i;
            }
        }
    }
    printf("best=%.6f at %d pairs=%ld pair_sum=%ld\n", best, best_i, pairs, pair_sum);
    return 0;
}
