/* target regions launched concurrently from several host threads (a host parallel for over
 * independent blocks, each with its own map and reduction), as codes that overlap work on
 * several streams do; plus omp_get_device_num on the device. */
#include <omp.h>
#include <stdio.h>

#define NB 6
#define BS 512

int main(void)
{
    static double data[NB][BS];
    double sums[NB];
    for (int b = 0; b < NB; b++)
        for (int i = 0; i < BS; i++)
            data[b][i] = b + (i % 8) * 0.125;
#pragma omp parallel for num_threads(3) schedule(static, 1)
    for (int b = 0; b < NB; b++) {
        double s = 0;
        double *blk = data[b];
#pragma omp target teams distribute parallel for map(tofrom : blk[0:BS]) reduction(+ : s)
        for (int i = 0; i < BS; i++) {
            blk[i] = blk[i] * 2.0 + 1.0;
            s += blk[i];
        }
        sums[b] = s;
    }
    for (int b = 0; b < NB; b++)
        printf("block %d sum=%.3f last=%.3f\n", b, sums[b], data[b][BS - 1]);
    int devnum = -5, initial = omp_get_initial_device(), dflt = omp_get_default_device();
#pragma omp target map(from : devnum)
    devnum = omp_get_device_num();
    printf("device_num_ok=%d\n", devnum == dflt || devnum == initial);
    return 0;
}
