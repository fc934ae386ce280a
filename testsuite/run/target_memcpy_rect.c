/* omp_target_memcpy_rect, omp_target_associate_ptr / disassociate. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define R 8
#define C 10

int main(void)
{
    int dev = omp_get_default_device();
    int host = omp_get_initial_device();
    double h[R][C], back[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            h[i][j] = i * 100 + j;
            back[i][j] = -1;
        }
    double *d = omp_target_alloc(sizeof(double) * 4 * 5, dev);
    size_t vol[2] = {4, 5}, doff[2] = {0, 0}, soff[2] = {2, 3};
    size_t ddim[2] = {4, 5}, sdim[2] = {R, C};
    int rc = omp_target_memcpy_rect(d, h, sizeof(double), 2, vol, doff, soff, ddim, sdim, dev, host);
    printf("rect rc=%d\n", rc);
#pragma omp target is_device_ptr(d) device(dev)
    for (int i = 0; i < 20; i++)
        d[i] += 0.5;
    size_t boff[2] = {1, 1};
    rc = omp_target_memcpy_rect(back, d, sizeof(double), 2, vol, boff, doff, sdim, ddim, host, dev);
    printf("rect back rc=%d\n", rc);
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 7; j++)
            printf(" %6.1f", back[i][j]);
        printf("\n");
    }

    /* associate a host buffer with device memory we allocated ourselves */
    int n = 32;
    int *buf = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
        buf[i] = i;
    int *dbuf = omp_target_alloc(sizeof(int) * n, dev);
    omp_target_memcpy(dbuf, buf, sizeof(int) * n, 0, 0, dev, host);
    int assoc = dev != host;
    if (assoc) {
        rc = omp_target_associate_ptr(buf, dbuf, sizeof(int) * n, 0, dev);
        printf("assoc ok=%d present=%d\n", rc == 0, omp_target_is_present(buf, dev));
    } else {
        printf("assoc ok=1 present=1\n");
    }
    int *mp = NULL;
#pragma omp target data use_device_ptr(buf) device(dev)
    mp = buf;
    printf("mapped matches=%d\n", !assoc || mp == dbuf);
#pragma omp target map(tofrom : buf[0:n]) device(dev)
    for (int i = 0; i < n; i++)
        buf[i] *= 3;
#pragma omp target update from(buf[0:n]) device(dev)
    printf("buf[5]=%d buf[31]=%d\n", buf[5], buf[31]);
    if (assoc)
        printf("disassoc ok=%d\n", omp_target_disassociate_ptr(buf, dev) == 0);
    else
        printf("disassoc ok=1\n");
    omp_target_free(dbuf, dev);
    omp_target_free(d, dev);
    free(buf);
    return 0;
}
