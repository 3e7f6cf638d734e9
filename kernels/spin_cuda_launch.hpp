// Declaration of the CUDA launch of every scheme for one spin system, by its registry index.
// Each index is explicitly instantiated in its own translation unit (kernels/spin_cuda_system.cu,
// compiled once per registry entry by CMake), so the heavy kernels compile in parallel and a new
// system needs no new .cu file.
#pragma once

#include "save_recorder.hpp"
#include "spin_body.hpp"
#include "spin_chain_layout.hpp"
#include "spin_dispatch.hpp"

struct CUstream_st;  // what cudaStream_t points to: this header stays free of CUDA headers

namespace geomint {

// Queues the kernel over view.chains chains on `stream` and returns at once (a bad launch throws).
// `saves` (device memory), when given, records the states --save-every asks for. `block`, when
// given, runs each chain of a chain system by a thread block (kernels/cuda_block_team.cuh) if the
// scheme has a team step; otherwise, and for a single spin, one thread runs each chain.
template <int SystemIndex, class Real>
void enqueue_spin_system(const SpinModel& model, const SpinStepSettings<Real>& step, const SpinBatchView<Real>& view,
                         const SaveRecorder<Real>* saves, const SpinBlockLaunch<Real>* block, CUstream_st* stream);

}  // namespace geomint
