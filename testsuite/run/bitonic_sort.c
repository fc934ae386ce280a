/* Bitonic sort of 4096 ints: one kernel per (k, j) stage, launched from host loops inside a
 * target data region (78 launches); the result is checked sorted and checksummed. */
#include <stdio.h>

#define N 4096

static int v[N];

int main(void)
{
    long before = 0;
    for (int i = 0; i < N; i++) {
        unsigned h = (unsigned)i * 2246822519u;
        h ^= h >> 13;
        v[i] = (int)(h % 100000) - 50000;
        before += v[i];
    }
    int launches = 0;
#pragma omp target data map(tofrom : v)
    for (int k = 2; k <= N; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            launches++;
#pragma omp target teams distribute parallel for
            for (int i = 0; i < N; i++) {
                int l = i ^ j;
                if (l > i) {
                    int up = (i & k) == 0;
                    if ((up && v[i] > v[l]) || (!up && v[i] < v[l])) {
                        int t = v[i];
                        v[i] = v[l];
                        v[l] = t;
                    }
                }
            }
        }
    int sorted = 1;
    long after = 0;
    for (int i = 0; i < N; i++) {
        after += v[i];
        if (i > 0 && v[i - 1] > v[i])
            sorted = 0;
    }
    printf("launches=%d sorted=%d same_sum=%d min=%d median=%d max=%d\n", launches, sorted,
           before == after, v[0], v[N / 2], v[N - 1]);
    return 0;
}
