/* k-means: 4000 2-D points, 8 centroids, 4 iterations of the device assignment step (argmin of
 * squared distances) and a host update; integer labels and counts must match exactly. */
#include <stdio.h>

#define N 4000
#define K 8
#define ITERS 4

static float xs[N], ys[N];
static int label[N];

int main(void)
{
    float cx[K], cy[K];
    for (int i = 0; i < N; i++) {
        int c = i % K;
        xs[i] = (float)(c * 10 + (i * 37) % 11) * 0.5f;
        ys[i] = (float)((c % 3) * 20 + (i * 53) % 13) * 0.5f;
    }
    for (int k = 0; k < K; k++) {
        cx[k] = xs[k * 3];
        cy[k] = ys[k * 3];
    }
    int changes = 0;
    for (int it = 0; it < ITERS; it++) {
        changes = 0;
#pragma omp target teams distribute parallel for map(to : xs, ys, cx, cy) map(tofrom : label) \
    reduction(+ : changes)
        for (int i = 0; i < N; i++) {
            int best = 0;
            double bd = 1e300;
            for (int k = 0; k < K; k++) {
                /* float differences, squared exactly in double: contraction-proof ties */
                double dx = xs[i] - cx[k], dy = ys[i] - cy[k];
                double d = dx * dx + dy * dy;
                if (d < bd) {
                    bd = d;
                    best = k;
                }
            }
            changes += label[i] != best;
            label[i] = best;
        }
        int cnt[K] = {0};
        double sx[K] = {0}, sy[K] = {0};
        for (int i = 0; i < N; i++) {
            cnt[label[i]]++;
            sx[label[i]] += xs[i];
            sy[label[i]] += ys[i];
        }
        for (int k = 0; k < K; k++)
            if (cnt[k]) {
                cx[k] = (float)(sx[k] / cnt[k]);
                cy[k] = (float)(sy[k] / cnt[k]);
            }
        printf("iter %d changes=%d cnt0=%d cnt7=%d\n", it, changes, cnt[0], cnt[K - 1]);
    }
    printf("c0=(%.4f, %.4f) c5=(%.4f, %.4f)\n", cx[0], cy[0], cx[5], cy[5]);
    return 0;
}
