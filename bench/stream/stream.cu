// BabelStream-style memory bandwidth in CUDA, the twin of stream.c: the same kernels, sizes,
// repetitions and timing (host wall time around each launch until it completes), written the
// way a CUDA programmer would (a thread per element, a block reduction and one atomic per
// block for dot).
#include "../kernels/cuda_bench.h"
#include <chrono>
#include <cmath>

#ifndef STREAM_N
#define STREAM_N (1 << 25)
#endif
#ifndef NTIMES
#define NTIMES 20
#endif

static const int TB = 256;

__global__ void init(int n, double *a, double *b, double *c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = 0.1;
        b[i] = 0.2;
        c[i] = 0.0;
    }
}
__global__ void copy(int n, const double *__restrict__ a, double *__restrict__ c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i];
}
__global__ void mul(int n, double s, double *__restrict__ b, const double *__restrict__ c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = s * c[i];
}
__global__ void add(int n, const double *__restrict__ a, const double *__restrict__ b,
                    double *__restrict__ c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
__global__ void triad(int n, double s, double *__restrict__ a, const double *__restrict__ b,
                      const double *__restrict__ c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}
__global__ void dot(int n, const double *__restrict__ a, const double *__restrict__ b,
                    double *__restrict__ sum) {
    double acc = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += a[i] * b[i];
    block_sum_into<TB>(acc, sum);
}

static double now() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

static double best(const double *t) {
    double m = t[1];
    for (int k = 2; k < NTIMES; k++)
        m = t[k] < m ? t[k] : m;
    return m;
}

int main(void) {
    int n = STREAM_N;
    double scalar = 0.4;
    double *a, *b, *c, *dsum;
    CHECK(cudaMalloc(&a, sizeof(double) * n));
    CHECK(cudaMalloc(&b, sizeof(double) * n));
    CHECK(cudaMalloc(&c, sizeof(double) * n));
    CHECK(cudaMalloc(&dsum, sizeof(double)));
    unsigned grid = (n + TB - 1) / TB;
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned dot_grid = grid < 8u * sms ? grid : 8u * sms;
    init<<<grid, TB>>>(n, a, b, c);
    CHECK(cudaDeviceSynchronize());
    double times[5][NTIMES];
    double sum = 0.0;
    for (int k = 0; k < NTIMES; k++) {
        double t0 = now();
        copy<<<grid, TB>>>(n, a, c);
        CHECK(cudaDeviceSynchronize());
        double t1 = now();
        mul<<<grid, TB>>>(n, scalar, b, c);
        CHECK(cudaDeviceSynchronize());
        double t2 = now();
        add<<<grid, TB>>>(n, a, b, c);
        CHECK(cudaDeviceSynchronize());
        double t3 = now();
        triad<<<grid, TB>>>(n, scalar, a, b, c);
        CHECK(cudaDeviceSynchronize());
        double t4 = now();
        CHECK(cudaMemset(dsum, 0, sizeof(double)));
        dot<<<dot_grid, TB>>>(n, a, b, dsum);
        CHECK(cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost));
        double t5 = now();
        times[0][k] = t1 - t0;
        times[1][k] = t2 - t1;
        times[2][k] = t3 - t2;
        times[3][k] = t4 - t3;
        times[4][k] = t5 - t4;
    }
    const char *names[5] = {"copy", "mul", "add", "triad", "dot"};
    const double arrays[5] = {2, 2, 3, 3, 2};
    for (int k = 0; k < 5; k++) {
        double t = best(times[k]);
        printf("stream %s n=%d best %.6f ms %.1f GB/s\n", names[k], n, t * 1e3,
               arrays[k] * sizeof(double) * n / t * 1e-9);
    }
    double *ha = (double *)malloc(sizeof(double) * n), *hb = (double *)malloc(sizeof(double) * n);
    double *hc = (double *)malloc(sizeof(double) * n);
    CHECK(cudaMemcpy(ha, a, sizeof(double) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, b, sizeof(double) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc, c, sizeof(double) * n, cudaMemcpyDeviceToHost));
    double ga = 0.1, gb = 0.2, gc = 0.0;
    for (int k = 0; k < NTIMES; k++) {
        gc = ga;
        gb = scalar * gc;
        gc = ga + gb;
        ga = gb + scalar * gc;
    }
    double err = 0.0;
    for (int i = 0; i < n; i++)
        err = fmax(err, fmax(fabs(ha[i] - ga), fmax(fabs(hb[i] - gb), fabs(hc[i] - gc))));
    double gsum = ga * gb * n;
    int ok = err <= 1e-8 * fabs(ga) && fabs(sum - gsum) <= 1e-8 * fabs(gsum);
    printf("stream check %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
