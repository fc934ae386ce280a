/* Thread-private local arrays indexed with run-time values: a per-iteration insertion sort of
 * 16 values, a sliding window, and a small lookup table built per thread. */
#include <stdio.h>

#define N 2000

int main(void)
{
    static int median[N], window_max[N];
    static long table_sum[N];
#pragma omp target teams distribute parallel for map(from : median, window_max, table_sum)
    for (int i = 0; i < N; i++) {
        int v[16];
        for (int k = 0; k < 16; k++)
            v[k] = (int)(((unsigned)(i * 16 + k) * 2654435761u) >> 20);
        for (int k = 1; k < 16; k++) {
            int key = v[k], j = k - 1;
            while (j >= 0 && v[j] > key) {
                v[j + 1] = v[j];
                j--;
            }
            v[j + 1] = key;
        }
        median[i] = (v[7] + v[8]) / 2;
        int w[5] = {0, 0, 0, 0, 0}, best = 0;
        for (int k = 0; k < 40; k++) {
            w[k % 5] = (i * 31 + k * k) % 97;
            int m = w[0];
            for (int j = 1; j < 5; j++)
                m = w[j] > m ? w[j] : m;
            best += m;
        }
        window_max[i] = best;
        long tab[10];
        tab[0] = i;
        for (int k = 1; k < 10; k++)
            tab[k] = tab[k - 1] * 3 % 1000 + k;
        long s = 0;
        for (int k = 0; k < 10; k++)
            s += tab[(k * 7 + i) % 10];
        table_sum[i] = s;
    }
    long a = 0, b = 0, c = 0;
    for (int i = 0; i < N; i++) {
        a += median[i];
        b += window_max[i];
        c += table_sum[i];
    }
    printf("median=%ld window=%ld table=%ld median[5]=%d\n", a, b, c, median[5]);
    return 0;
}
