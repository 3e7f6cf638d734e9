// One CUDA thread per index: runs a host+device body functor over [0, n) on the device.
#pragma once

#include <cstddef>

#include "cuda_check.cuh"

namespace geomint {

template <class Body>
__global__ void for_each_index_kernel(Body body, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) body(i);
}

// Launches `body` over n indices with `block_size` threads per block and returns the
// kernel's time in milliseconds, measured with CUDA events around the launch.
template <class Body>
float launch_for_each_index(const Body& body, std::size_t n, int block_size = 128) {
    if (n == 0) return 0.0f;
    const std::size_t blocks = (n + block_size - 1) / block_size;
    cudaEvent_t start{}, stop{};
    GEOMINT_CUDA_CHECK(cudaEventCreate(&start));
    GEOMINT_CUDA_CHECK(cudaEventCreate(&stop));
    GEOMINT_CUDA_CHECK(cudaEventRecord(start));
    for_each_index_kernel<<<static_cast<unsigned>(blocks), block_size>>>(body, n);
    GEOMINT_CUDA_CHECK(cudaGetLastError());
    GEOMINT_CUDA_CHECK(cudaEventRecord(stop));
    GEOMINT_CUDA_CHECK(cudaEventSynchronize(stop));
    float milliseconds = 0.0f;
    GEOMINT_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start, stop));
    GEOMINT_CUDA_CHECK(cudaEventDestroy(start));
    GEOMINT_CUDA_CHECK(cudaEventDestroy(stop));
    GEOMINT_CUDA_CHECK_LAUNCH();
    return milliseconds;
}

// Queues `body` over n indices on `stream` and returns at once (the double-buffered runners): a
// bad launch throws here, an error while it runs when the stream is waited for.
template <class Body>
void enqueue_for_each_index(const Body& body, std::size_t n, cudaStream_t stream, int block_size = 128) {
    if (n == 0) return;
    const std::size_t blocks = (n + block_size - 1) / block_size;
    for_each_index_kernel<<<static_cast<unsigned>(blocks), block_size, 0, stream>>>(body, n);
    GEOMINT_CUDA_CHECK(cudaGetLastError());
}

// Sets every element of a device array; on a stream, unlike thrust::fill, and exactly `value`
// (a byte-wise cudaMemsetAsync cannot write the quiet NaN that marks an unsaved state).
template <class T>
struct FillBody {
    T* data;
    T value;
    __device__ void operator()(std::size_t i) const { data[i] = value; }
};

template <class T>
void enqueue_fill(T* data, std::size_t n, T value, cudaStream_t stream) {
    enqueue_for_each_index(FillBody<T>{data, value}, n, stream, 256);
}

}  // namespace geomint
