/* Mapping structured data to a device: struct members and arrays of structs, a pointer member
 * with its pointee section (attach), firstprivate structs, the device memory API
 * (omp_target_alloc/memcpy/free with is_device_ptr), and use_device_ptr in a target data region. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

typedef struct { double x, y, z; } vec3;
typedef struct { int n; double *w; double bias; } layer;

int main(void)
{
    enum { N = 512 };
    vec3 pts[N];
    for (int i = 0; i < N; i++)
        pts[i] = (vec3){i * 0.5, -i * 0.25, (i % 8) * 1.0};
    vec3 shift = {1.0, 2.0, -3.0}; /* struct scalar: firstprivate by default */
#pragma omp target teams distribute parallel for map(tofrom : pts)
    for (int i = 0; i < N; i++) {
        pts[i].x += shift.x;
        pts[i].y += shift.y;
        pts[i].z = pts[i].z * shift.z;
    }
    double sx = 0, sy = 0, sz = 0;
    for (int i = 0; i < N; i++) {
        sx += pts[i].x;
        sy += pts[i].y;
        sz += pts[i].z;
    }
    printf("points: sum x=%.6g y=%.6g z=%.6g\n", sx, sy, sz);

    layer L = {N, malloc(N * sizeof(double)), 0.5};
    for (int i = 0; i < N; i++)
        L.w[i] = (i % 10) * 0.1;
    double out[N];
    /* the struct and the array its pointer member points to; the pointer is attached */
#pragma omp target teams distribute parallel for map(to : L, L.w[0:N]) map(from : out)
    for (int i = 0; i < N; i++)
        out[i] = L.w[i] * 2.0 + L.bias;
    double so = 0;
    for (int i = 0; i < N; i++)
        so += out[i];
    printf("layer: out[13]=%.6g sum=%.6g\n", out[13], so);

    /* device memory API: on a machine without a device this uses the initial device */
    int dev = omp_get_num_devices() > 0 ? omp_get_default_device() : omp_get_initial_device();
    int host = omp_get_initial_device();
    int *dbuf = omp_target_alloc(N * sizeof(int), dev);
    int hbuf[N];
    for (int i = 0; i < N; i++)
        hbuf[i] = i;
    int rc1 = omp_target_memcpy(dbuf, hbuf, N * sizeof(int), 0, 0, dev, host);
#pragma omp target teams distribute parallel for is_device_ptr(dbuf) device(dev)
    for (int i = 0; i < N; i++)
        dbuf[i] = dbuf[i] * dbuf[i] % 1000;
    int back[N];
    int rc2 = omp_target_memcpy(back, dbuf, N * sizeof(int), 0, 0, host, dev);
    omp_target_free(dbuf, dev);
    long sb = 0;
    for (int i = 0; i < N; i++)
        sb += back[i];
    printf("device memory API: alloc ok=%d memcpy rc=%d,%d sum=%ld back[31]=%d\n", dbuf != NULL, rc1, rc2, sb,
           back[31]);

    /* use_device_ptr: the region sees the device address of a mapped array */
    double *arr = malloc(N * sizeof(double));
    for (int i = 0; i < N; i++)
        arr[i] = 1.0;
#pragma omp target data map(tofrom : arr[0:N])
    {
#pragma omp target data use_device_ptr(arr)
        {
#pragma omp target teams distribute parallel for is_device_ptr(arr)
            for (int i = 0; i < N; i++)
                arr[i] += i;
        }
    }
    double sa = 0;
    for (int i = 0; i < N; i++)
        sa += arr[i];
    printf("use_device_ptr: sum=%.6g arr[N-1]=%.6g\n", sa, arr[N - 1]);
    free(arr);
    free(L.w);
    return 0;
}
