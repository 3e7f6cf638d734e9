// Declaration of the CUDA launch of every scheme for one spin system, by its registry index.
// Each index is explicitly instantiated in its own translation unit (kernels/spin_cuda_system.cu,
// compiled once per registry entry by CMake), so the heavy kernels compile in parallel and a new
// system needs no new .cu file.
#pragma once

#include "save_recorder.hpp"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

struct CUstream_st;  // what cudaStream_t points to: this header stays free of CUDA headers

namespace geomint {

// Queues the kernel over view.chains chains on `stream` and returns at once (a bad launch throws).
// `saves` (device memory), when given, records the states --save-every asks for.
template <int SystemIndex, class Real>
void enqueue_spin_system(const SpinModel& model, const SpinStepSettings<Real>& step, const SpinBatchView<Real>& view,
                         const SaveRecorder<Real>* saves, CUstream_st* stream);

}  // namespace geomint
