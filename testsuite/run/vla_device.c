/* VLAs on the device: a per-iteration scratch `double tmp[len]` in a parallel loop (each
 * thread's own stack, freed at the end of every iteration), a 2-D VLA, a VLA in a declare
 * target function, and VLAs in the sequential part of a generic teams region. */
#include <stdio.h>

#define N 96
#define B 4

#pragma omp declare target
/* largest sum of `w` consecutive elements, through a VLA of prefix sums */
static double best_window(const double *a, int len, int w) {
    double pre[len + 1];
    pre[0] = 0.0;
    for (int k = 0; k < len; k++)
        pre[k + 1] = pre[k] + a[k];
    double best = pre[w];
    for (int k = w; k <= len; k++)
        if (pre[k] - pre[k - w] > best)
            best = pre[k] - pre[k - w];
    return best;
}
#pragma omp end declare target

int main(void) {
    double a[N], out[N], mix[N], win[N], twice[N], part[B], peak[B];
    int n = 5, m = 3;
    for (int i = 0; i < N; i++)
        a[i] = (i % 17) * 0.25 - 1.5;

#pragma omp target teams distribute parallel for map(to : a) map(from : out) firstprivate(n)
    for (int i = 0; i < N; i++) {
        int len = n + i % 3;
        double tmp[len];
        for (int k = 0; k < len; k++)
            tmp[k] = a[(i + k) % N] * (k + 1);
        double s = 0.0;
        for (int k = len - 1; k >= 0; k--)
            s += tmp[k] * tmp[len - 1 - k];
        out[i] = s;
    }

#pragma omp target parallel for map(to : a) map(from : mix, win)
    for (int i = 0; i < N; i++) {
        double g[m][n];
        for (int r = 0; r < m; r++)
            for (int c = 0; c < n; c++)
                g[r][c] = a[(i + r * n + c) % N] - r;
        double t = 0.0;
        for (int c = 0; c < n; c++)
            for (int r = 0; r < m; r++)
                t += g[r][c] * (c + 1);
        mix[i] = t + (double)sizeof(g) / sizeof(double);
        win[i] = best_window(a + i / 2, 8, 1 + i % 4);
    }

#pragma omp target teams distribute map(to : a) map(from : twice, part, peak)
    for (int b = 0; b < B; b++) {
        /* sequential part of each team: VLAs sized at run time */
        int width = N / B, lo = b * width;
        double local[width];
        for (int k = 0; k < width; k++)
            local[k] = a[lo + k] * (b + 1);
        double sums[width / 8];
#pragma omp parallel for
        for (int j = lo; j < lo + width; j++)
            twice[j] = a[j] * 2.0;
        for (int q = 0; q < width / 8; q++) {
            sums[q] = 0.0;
            for (int k = 0; k < 8; k++)
                sums[q] += local[q * 8 + k];
        }
        double p = sums[0], t = 0.0;
        for (int q = 0; q < width / 8; q++) {
            t += sums[q];
            if (sums[q] > p)
                p = sums[q];
        }
        part[b] = t;
        peak[b] = p;
    }

    double so = 0.0, sm = 0.0, sw = 0.0, st = 0.0;
    for (int i = 0; i < N; i++) {
        st += twice[i];
        so += out[i];
        sm += mix[i];
        sw += win[i];
    }
    printf("scratch: sum %.4f out[0] %.4f out[50] %.4f out[95] %.4f\n", so, out[0], out[50],
           out[95]);
    printf("2-D: sum %.4f mix[7] %.4f; windows: sum %.4f win[3] %.4f win[90] %.4f\n", sm,
           mix[7], sw, win[3], win[90]);
    for (int b = 0; b < B; b++)
        printf("team part %d: %.4f peak %.4f\n", b, part[b], peak[b]);
    printf("twice: sum %.4f\n", st);
    return 0;
}
