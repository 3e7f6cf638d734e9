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

}  // namespace geomint
