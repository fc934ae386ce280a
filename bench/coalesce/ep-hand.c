// ep, hand-coalesced: the same kernel with the work arrays interleaved thread-minor
// (work[w][t]: consecutive threads touch consecutive elements).
#include <stdio.h>
#include <stdlib.h>

#ifndef T
#define T 4096
#endif
#define W 32

int main(void) {
    int nt = T;
    float *work = malloc(sizeof(float) * nt * W);
    float *out = malloc(sizeof(float) * nt);
#pragma omp target teams distribute parallel for map(alloc : work[0:nt * W]) map(from : out[0:nt])
    for (int t = 0; t < nt; t++) {
        unsigned seed = 12345u + 2654435761u * (unsigned)t;
        for (int w = 0; w < W; w++) {
            seed = seed * 1103515245u + 12345u;
            work[w * nt + t] = (float)((seed >> 8) & 0xffff) / 65536.0f;
        }
        float s = 0.0f;
        for (int w = 0; w < W; w++)
            s += work[w * nt + t] * work[(W - 1 - w) * nt + t];
        out[t] = s;
    }
    double sum = 0.0;
    for (int t = 0; t < nt; t++)
        sum += out[t] * (double)(t % 9 + 1);
    printf("ep t=%d checksum %.9e\n", nt, sum);
    free(work);
    free(out);
    return 0;
}
