// Declaration of the CUDA launch of every scheme for one spin system, by its registry index.
// Each index is explicitly instantiated in its own translation unit (kernels/spin_cuda_system.cu,
// compiled once per registry entry by CMake), so the heavy kernels compile in parallel and a new
// system needs no new .cu file.
#pragma once

#include "save_recorder.hpp"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

// `saves` (device memory), when given, records the states --save-every asks for.
template <int SystemIndex, class Real>
float launch_spin_system(const SpinModel& model, const SpinStepSettings<Real>& step, const SpinBatchView<Real>& view,
                         const SaveRecorder<Real>* saves);

}  // namespace geomint
