// Declaration of the CUDA launch of a spin portrait for one spin system, by its registry index:
// every scheme's per-chain body with the atomic histogram recorder. Instantiated once per index in
// its own translation unit (kernels/spin_portrait_cuda_system.cu), as the plain spin kernels are.
#pragma once

#include <cuda_runtime.h>

#include "geomint/portrait/trajectory_recorders.hpp"
#include "portrait_histogram.cuh"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

using SpinPortraitDeviceRecorder = portrait::SpinPortraitRecorder<portrait::AtomicRecorder>;

// Queues the kernel over view.chains chains on `stream` and returns at once (a bad launch throws).
template <int SystemIndex, class Real>
void enqueue_spin_portrait_system(const SpinModel& model, const SpinStepSettings<Real>& step,
                                  const SpinBatchView<Real>& view, const SpinPortraitDeviceRecorder& recorder,
                                  cudaStream_t stream);

}  // namespace geomint
