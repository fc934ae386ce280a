/* Mapping struct members: a member array by name, a pointer member's pointee section with the
 * struct (attach), and a struct passed by value (firstprivate) into a kernel. */
#include <stdio.h>
#include <stdlib.h>

#define N 1000

struct vecbuf {
    int n;
    double scale;
    double fixed[16];
    double *data;
};

struct params {
    double a, b;
    int shift;
};

int main(void)
{
    struct vecbuf vb;
    vb.n = N;
    vb.scale = 2.5;
    vb.data = malloc(N * sizeof *vb.data);
    for (int i = 0; i < N; i++)
        vb.data[i] = i % 11;
    for (int k = 0; k < 16; k++)
        vb.fixed[k] = k;
#pragma omp target map(tofrom : vb.fixed)
    for (int k = 0; k < 16; k++)
        vb.fixed[k] *= vb.fixed[k];
#pragma omp target teams distribute parallel for map(to : vb) map(tofrom : vb.data[0:N])
    for (int i = 0; i < vb.n; i++)
        vb.data[i] = vb.data[i] * vb.scale + vb.fixed[i % 16];
    struct params prm = {0.5, -3.0, 2};
    static double out[N];
#pragma omp target teams distribute parallel for firstprivate(prm) map(to : vb, vb.data[0:N]) \
    map(from : out)
    for (int i = 0; i < N; i++)
        out[(i + prm.shift) % N] = prm.a * vb.data[i] + prm.b;
    double s1 = 0, s2 = 0;
    for (int i = 0; i < N; i++) {
        s1 += vb.data[i];
        s2 += out[i];
    }
    printf("fixed[15]=%.1f s1=%.6f s2=%.6f out[2]=%.6f\n", vb.fixed[15], s1, s2, out[2]);
    free(vb.data);
    return 0;
}
