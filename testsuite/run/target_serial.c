/* `target` alone: a serial region on one device thread with ordinary loops, a nested loop
 * over a matrix, a while loop with a data-dependent exit, and scalar results mapped back. */
#include <stdio.h>

#define N 40

int main(void)
{
    static int m[N][N];
    long trace = 0;
    int first_big = -1;
    double harmonic = 0.0;
#pragma omp target map(from : m) map(tofrom : trace, first_big, harmonic)
    {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                m[i][j] = (i + 1) * (j + 2) % 37;
        for (int i = 0; i < N; i++)
            trace += m[i][i];
        int k = 0;
        while (k < N * N && m[k / N][k % N] < 36)
            k++;
        first_big = k;
        for (int i = 1; i <= 1000; i++)
            harmonic += 1.0 / i;
        /* a running prefix that only a sequential loop gives */
        for (int i = 1; i < N; i++)
            m[i][0] += m[i - 1][0];
    }
    printf("trace=%ld first_big=%d harmonic=%.10g m[39][0]=%d m[7][9]=%d\n", trace, first_big,
           harmonic, m[N - 1][0], m[7][9]);

    /* a serial region that sorts a small array (insertion sort) */
    int v[64];
    for (int i = 0; i < 64; i++)
        v[i] = (i * 37 + 11) % 64;
#pragma omp target map(tofrom : v)
    for (int i = 1; i < 64; i++) {
        int key = v[i], j = i - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = key;
    }
    int sorted = 1;
    for (int i = 0; i < 64; i++)
        sorted &= v[i] == i;
    printf("sorted=%d v[10]=%d\n", sorted, v[10]);
    return 0;
}
