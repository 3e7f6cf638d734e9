// Host API of the CUDA backend. Implemented in kernels/*.cu when CUDA is compiled, and by
// src/backends/cuda_unavailable.cpp otherwise; callers never need a CUDA header.
#pragma once

#include <string>

#include "pendulum_batch.hpp"
#include "spin_batch.hpp"

namespace geomint {

struct CudaDeviceInfo {
    bool usable = false;
    std::string description;  // the device's name, or why none can be used
};

// Never throws: tells whether a CUDA device can run kernels now.
CudaDeviceInfo cuda_device_info();

// Copies the batch's inputs to the device, runs one thread per trajectory with the same body
// as the CPU backend, and copies the outputs back. Returns the kernel's time in milliseconds,
// measured with CUDA events. Throws std::runtime_error on any CUDA error.
template <class Real>
float run_pendulum_batch_cuda(const PendulumRunSettings<Real>& settings, PendulumBatch<Real>& batch);

// The same for a spin ensemble: one thread per chain, state and workspace in device memory in
// the structure-of-arrays layout of SpinBatch. Returns the kernel's time in milliseconds.
float run_spin_batch_cuda(const SpinRunSettings& settings, SpinBatch& batch);

}  // namespace geomint
