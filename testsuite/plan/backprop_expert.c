/* backprop, expert form: the computation of backprop_naive.c with hand-written data movement:
 * one data region around the epoch loop (`input` and `oldw` `to`, `w` `tofrom`, `partial` and
 * `delta` `alloc`); per epoch `target update from` of `partial` and of the bias row `w[0:W]`
 * after the forward kernel, `target update to` of `delta` before the adjust kernel.
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define IN 2048
#define HID 16
#define W (HID + 1)
#define BLOCK 128
#define NBLK (IN / BLOCK)
#define EPOCHS 12

static int clamp(long v, int lim)
{
    return v > lim ? lim : v < -lim ? -lim : (int)v;
}

int main(void)
{
    int *input = malloc((IN + 1) * sizeof *input), *w = malloc((IN + 1) * W * sizeof *w);
    int *oldw = malloc((IN + 1) * W * sizeof *oldw), *delta = malloc(W * sizeof *delta);
    long *partial = malloc(NBLK * W * sizeof *partial);
    int hidden[W], w2[W];
    input[0] = 128; /* the bias unit */
    for (int i = 1; i <= IN; i++)
        input[i] = (i * 29) % 256;
    for (int k = 0; k < (IN + 1) * W; k++) {
        w[k] = (int)((k * 2654435761u) >> 20) % 4096 - 2048;
        oldw[k] = 0;
    }
    for (int j = 0; j < W; j++) {
        w2[j] = (j * 773) % 4096 - 2048;
        delta[j] = 0;
    }
#pragma omp target data map(to : input[0:IN + 1], oldw[0:(IN + 1) * W]) map(tofrom : w[0:(IN + 1) * W]) map(alloc : partial[0:NBLK * W], delta[0:W])
    for (int epoch = 0; epoch < EPOCHS; epoch++) {
        /* Forward: partial[b][j] = sum over the inputs of block b of w[i][j] * input[i]. */
#pragma omp target teams distribute parallel for collapse(2)
        for (int b = 0; b < NBLK; b++)
            for (int j = 1; j < W; j++) {
                long s = 0;
                for (int i = b * BLOCK + 1; i <= b * BLOCK + BLOCK; i++)
                    s += (long)w[i * W + j] * input[i];
                partial[b * W + j] = s;
            }
        /* The host finishes the sums, runs the output unit and computes the deltas. */
#pragma omp target update from(partial[0:NBLK * W], w[0:W])
        long out = 0;
        for (int j = 1; j < W; j++) {
            long s = (long)w[j] * input[0];
            for (int b = 0; b < NBLK; b++)
                s += partial[b * W + j];
            hidden[j] = clamp(s / 4096, 4096);
            out += (long)hidden[j] * w2[j] / 4096;
        }
        int target = (epoch % 3) * 1000 - 1000, err = clamp(target - out, 4096);
        for (int j = 1; j < W; j++) {
            int h = hidden[j] < 0 ? -hidden[j] : hidden[j];
            delta[j] = (int)((long)err * w2[j] / 4096 * (4096 - h) / 4096);
            w2[j] += (int)((long)err * hidden[j] / (1 << 20));
        }
        printf("epoch %d out %ld err %d delta[1] %d\n", epoch, out, err, delta[1]);
#pragma omp target update to(delta[0:W])
        /* Adjust: w[i][j] += eta * delta[j] * input[i] + momentum * oldw[i][j]. */
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i <= IN; i++)
            for (int j = 1; j < W; j++) {
                int dw = 3 * delta[j] * input[i] / 65536 + oldw[i * W + j] / 2;
                w[i * W + j] += dw;
                oldw[i * W + j] = dw;
            }
    }
    long sum = 0, hash = 0;
    for (int k = 0; k < (IN + 1) * W; k++) {
        sum += w[k];
        hash = (hash * 31 + w[k]) % 1000000007;
    }
    printf("backprop %d x %d epochs %d: weight sum %ld hash %ld\n", IN, HID, EPOCHS, sum, hash);
    free(input);
    free(w);
    free(oldw);
    free(delta);
    free(partial);
    return 0;
}
