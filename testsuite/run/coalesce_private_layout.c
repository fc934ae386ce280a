/* Private array layout (issue 16 item 5): device-only work arrays indexed thread-major
 * (work[t*W + k], work2[t][k]) that ompcc lays out thread-minor at -O2, and arrays it must leave as
 * written: one copied back to the host, a non-affine subscript, one a 'target data' keeps
 * on the device for a second kernel that reads it flat. */
#include <stdio.h>
#include <stdlib.h>

#define T 200
#define W 8

int main(void)
{
    int nt = T;
    unsigned *work = malloc(sizeof(unsigned) * nt * W);
    unsigned *back = malloc(sizeof(unsigned) * nt * W);
    unsigned *flat = malloc(sizeof(unsigned) * nt * W);
    unsigned *out = malloc(sizeof(unsigned) * nt);
    int *perm = malloc(sizeof(int) * W);
    for (int w = 0; w < W; w++)
        perm[w] = (w * 3 + 1) % W;

    /* fires: filled, then read reversed and shifted within the row */
#pragma omp target teams distribute parallel for map(alloc : work[0:nt * W]) map(from : out[0:nt])
    for (int t = 0; t < nt; t++) {
        unsigned seed = 12345u + 2654435761u * (unsigned)t;
        for (int w = 0; w < W; w++) {
            seed = seed * 1103515245u + 12345u;
            work[t * W + w] = seed >> 7;
        }
        unsigned s = 0;
        for (int w = 0; w < W; w++)
            s += work[t * W + (W - 1 - w)] * (unsigned)(w + 1);
        for (int w = 1; w < W; w++)
            work[W * t + w] ^= work[t * W + w - 1];
        out[t] = s ^ work[t * W + W - 1];
    }
    unsigned sum = 0;
    for (int t = 0; t < nt; t++)
        sum = sum * 31u + out[t];
    printf("layout: %u %u %u\n", out[0], out[nt - 1], sum);

    /* fires: rows of W elements through a pointer to rows, work2[t][k] */
    unsigned (*work2)[W] = malloc(sizeof(unsigned[W]) * nt);
#pragma omp target teams distribute parallel for map(alloc : work2[0:nt]) map(from : out[0:nt])
    for (int t = 0; t < nt; t++) {
        for (int w = 0; w < W; w++)
            work2[t][w] = (unsigned)(t * 31 + w * w);
        unsigned s = 1;
        for (int w = W - 1; w >= 0; w--)
            s = s * 5u + work2[t][W - 1 - w] * work2[t][w];
        out[t] = s;
    }
    sum = 0;
    for (int t = 0; t < nt; t++)
        sum = sum * 31u + out[t];
    printf("rows: %u %u %u\n", out[0], out[nt - 1], sum);
    free(work2);

    /* must not fire: the array is copied back to the host */
#pragma omp target teams distribute parallel for map(from : back[0:nt * W])
    for (int t = 0; t < nt; t++) {
        unsigned b = (unsigned)t * 100u;
        for (int w = 0; w < W; w++)
            back[t * W + w] = b + (unsigned)w;
    }
    printf("copied: %u %u %u\n", back[1], back[W], back[nt * W - 1]);

    /* must not fire: a subscript read from memory */
#pragma omp target teams distribute parallel for map(alloc : work[0:nt * W]) map(to : perm[0:W]) map(from : out[0:nt])
    for (int t = 0; t < nt; t++) {
        for (int w = 0; w < W; w++)
            work[t * W + w] = (unsigned)(t + w);
        unsigned s = 0;
        for (int w = 0; w < W; w++)
            s = s * 7u + work[t * W + perm[w]];
        out[t] = s;
    }
    sum = 0;
    for (int t = 0; t < nt; t++)
        sum = sum * 31u + out[t];
    printf("indirect: %u %u\n", out[5], sum);

    /* must not fire: 'target data' keeps 'flat' for a kernel that reads it flat */
#pragma omp target data map(alloc : flat[0:nt * W]) map(from : out[0:nt])
    {
#pragma omp target teams distribute parallel for map(alloc : flat[0:nt * W])
        for (int t = 0; t < nt; t++) {
            unsigned b = (unsigned)(t * W) * 3u;
            for (int w = 0; w < W; w++)
                flat[t * W + w] = b + 3u * (unsigned)w;
        }
#pragma omp target teams distribute parallel for map(alloc : flat[0:nt * W])
        for (int t = 0; t < nt; t++)
            out[t] = flat[t] * 2u + flat[nt * W - 1 - t];
    }
    printf("kept: %u %u %u\n", out[0], out[7], out[nt - 1]);

    free(work);
    free(back);
    free(flat);
    free(out);
    free(perm);
    return 0;
}
