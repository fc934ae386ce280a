// Shared by the CUDA references of the bench kernels (`*.cu`): error checks, and a timer that
// sums the device time of every kernel launch (CUDA events around each launch), as ompcc's
// OMPCC_PROFILE sums kernel time over launches. The total is printed on stderr as
// `cuda-kernel-ms <ms>`; stdout carries only the checksum line, equal to the OpenMP program's.
#ifndef OMPCC_BENCH_CUDA_BENCH_H
#define OMPCC_BENCH_CUDA_BENCH_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                    cudaGetErrorString(err_));                                               \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

// Blocks for one-dimensional launches.
static const int THREADS = 256;

static inline unsigned blocks_for(long n, int threads = THREADS) {
    return (unsigned)((n + threads - 1) / threads);
}

// Sums the time of the launches made between start() and stop().
struct KernelTimer {
    cudaEvent_t begin, end;
    double total_ms = 0.0;
    KernelTimer() {
        CHECK(cudaEventCreate(&begin));
        CHECK(cudaEventCreate(&end));
    }
    void start() { CHECK(cudaEventRecord(begin)); }
    void stop() {
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(end));
        CHECK(cudaEventSynchronize(end));
        float ms = 0.0f;
        CHECK(cudaEventElapsedTime(&ms, begin, end));
        total_ms += ms;
    }
    void report() const { fprintf(stderr, "cuda-kernel-ms %.6f\n", total_ms); }
};

// Adds every thread's `acc` of the block into `*sum`: warp shuffles, one warp over the warps'
// partial sums, one atomic per block. Every thread of the block must call it.
template <int BLOCK> __device__ void block_sum_into(double acc, double *sum) {
    __shared__ double warp_sums[BLOCK / 32];
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < BLOCK / 32 ? warp_sums[lane] : 0.0;
        for (int off = 16; off > 0; off /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, off);
        if (lane == 0)
            atomicAdd(sum, acc);
    }
}

template <typename T> static T *to_device(const T *host, size_t count) {
    T *dev = nullptr;
    CHECK(cudaMalloc(&dev, sizeof(T) * count));
    CHECK(cudaMemcpy(dev, host, sizeof(T) * count, cudaMemcpyHostToDevice));
    return dev;
}

template <typename T> static void to_host(T *host, const T *dev, size_t count) {
    CHECK(cudaMemcpy(host, dev, sizeof(T) * count, cudaMemcpyDeviceToHost));
}

#endif
