// Detects a usable CUDA device for the `auto` and `cuda` backends.
#include <cuda_runtime.h>

#include "cuda_backend.hpp"

namespace geomint {

CudaDeviceInfo cuda_device_info() {
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) return {false, std::string("no usable CUDA device (") + cudaGetErrorString(code) + ")"};
    if (count == 0) return {false, "no CUDA device present"};
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return {false, "cannot query CUDA device 0"};
    return {true, std::string(properties.name)};
}

}  // namespace geomint
