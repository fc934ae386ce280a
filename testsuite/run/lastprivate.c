/* lastprivate: the value from the sequentially last iteration comes back, for a target parallel
 * for, a combined teams construct, a collapsed nest and a conditional assignment pattern. */
#include <stdio.h>

#define N 1000

int main(void)
{
    static int a[N];
    int last = -1;
#pragma omp target parallel for lastprivate(last) map(from : a)
    for (int i = 0; i < N; i++) {
        last = i * 3;
        a[i] = last;
    }
    printf("last=%d a[999]=%d\n", last, a[N - 1]);

    double x = 0.0;
    int k;
#pragma omp target teams distribute parallel for lastprivate(x, k) map(tofrom : x, k)
    for (k = 0; k < N; k += 7)
        x = k * 0.5;
    printf("x=%.6f k=%d\n", x, k);

    int li = 0, lj = 0;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(li, lj) \
    map(tofrom : li, lj)
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 30; j++) {
            li = i;
            lj = j * j;
        }
    printf("li=%d lj=%d\n", li, lj);

    long tail = 0;
#pragma omp target parallel for firstprivate(tail) lastprivate(tail) map(tofrom : tail)
    for (int i = 0; i < 64; i++)
        tail = i + 1000L * i;
    printf("tail=%ld\n", tail);
    return 0;
}
