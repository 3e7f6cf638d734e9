// Stand-in for the CUDA backend in a build without nvcc: reports the backend as unavailable.
#include <stdexcept>

#include "backends/cuda_backend.hpp"

namespace geomint {

namespace {
const char* const kNoCuda = "geomint was built without CUDA (no nvcc found when it was configured)";
}

CudaDeviceInfo cuda_device_info() { return {false, kNoCuda}; }

template <class Real>
float run_pendulum_batch_cuda(const PendulumRunSettings<Real>&, PendulumBatch<Real>&) {
    throw std::runtime_error(kNoCuda);
}

template float run_pendulum_batch_cuda<double>(const PendulumRunSettings<double>&, PendulumBatch<double>&);
template float run_pendulum_batch_cuda<float>(const PendulumRunSettings<float>&, PendulumBatch<float>&);

float run_spin_batch_cuda(const SpinRunSettings&, SpinBatch&) { throw std::runtime_error(kNoCuda); }

}  // namespace geomint
