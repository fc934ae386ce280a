/* Device memory managed by hand: omp_target_alloc, omp_target_memcpy in both directions and
 * device to device, kernels using the pointers through is_device_ptr, omp_target_free. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 5000

int main(void)
{
    int dev = omp_get_default_device();
    int host = omp_get_initial_device();
    double *h = malloc(N * sizeof *h);
    for (int i = 0; i < N; i++)
        h[i] = (i % 100) * 0.5;
    double *d = omp_target_alloc(N * sizeof *d, dev);
    double *d2 = omp_target_alloc(N * sizeof *d2, dev);
    if (!d || !d2) {
        printf("allocation failed\n");
        return 1;
    }
    if (omp_target_memcpy(d, h, N * sizeof *h, 0, 0, dev, host) != 0)
        printf("memcpy to device failed\n");
#pragma omp target teams distribute parallel for is_device_ptr(d, d2)
    for (int i = 0; i < N; i++)
        d2[i] = d[i] * d[i] + 1.0;
    /* device-to-device copy of a section, with offsets */
    omp_target_memcpy(d, d2, 100 * sizeof *d, 10 * sizeof *d, 20 * sizeof *d, dev, dev);
    double s = 0.0;
#pragma omp target teams distribute parallel for is_device_ptr(d) reduction(+ : s)
    for (int i = 0; i < N; i++)
        s += d[i];
    double *back = malloc(N * sizeof *back);
    omp_target_memcpy(back, d2, N * sizeof *d2, 0, 0, host, dev);
    printf("s=%.10g back[0]=%.6f back[4999]=%.6f\n", s, back[0], back[N - 1]);
    omp_target_memcpy(back, d, N * sizeof *d, 0, 0, host, dev);
    printf("d[9]=%.6f d[10]=%.6f d[109]=%.6f d[110]=%.6f\n", back[9], back[10], back[109],
           back[110]);

    int *counts = omp_target_alloc(4 * sizeof(int), dev);
#pragma omp target is_device_ptr(counts)
    for (int k = 0; k < 4; k++)
        counts[k] = k * k;
    int hc[4];
    omp_target_memcpy(hc, counts, sizeof hc, 0, 0, host, dev);
    printf("counts=%d %d %d %d\n", hc[0], hc[1], hc[2], hc[3]);
    omp_target_free(counts, dev);
    omp_target_free(d, dev);
    omp_target_free(d2, dev);
    free(h);
    free(back);
    return 0;
}
