// Checks every CUDA runtime call and kernel launch; a failure becomes a std::runtime_error
// naming the call's place and CUDA's message.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace geomint {

inline void cuda_check(cudaError_t code, const char* what, const char* file, int line) {
    if (code != cudaSuccess) {
        throw std::runtime_error(std::string("CUDA error in ") + what + " (" + file + ":" + std::to_string(line) +
                                 "): " + cudaGetErrorString(code));
    }
}

}  // namespace geomint

#define GEOMINT_CUDA_CHECK(call) ::geomint::cuda_check((call), #call, __FILE__, __LINE__)
// After a launch: the launch's own error, then any error raised while it ran.
#define GEOMINT_CUDA_CHECK_LAUNCH()                  \
    do {                                             \
        GEOMINT_CUDA_CHECK(cudaGetLastError());      \
        GEOMINT_CUDA_CHECK(cudaDeviceSynchronize()); \
    } while (0)
