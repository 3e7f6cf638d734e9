// Stand-in for the CUDA pendulum portrait in a build without nvcc: constructing one throws.
#include <stdexcept>

#include "pendulum_portrait_cuda.hpp"

namespace geomint {

template <class Real>
struct PendulumPortraitCudaRunner<Real>::Device {};

template <class Real>
PendulumPortraitCudaRunner<Real>::PendulumPortraitCudaRunner(const PendulumModel&, const PendulumStepSettings<Real>&,
                                                             std::size_t, const portrait::PixelGrid&,
                                                             portrait::HistogramView, portrait::RecordSchedule, bool) {
    throw std::runtime_error("geomint was built without CUDA (no nvcc found when it was configured)");
}
template <class Real>
PendulumPortraitCudaRunner<Real>::~PendulumPortraitCudaRunner() = default;
template <class Real>
void PendulumPortraitCudaRunner<Real>::run(const PendulumBatchView<Real>&, const std::uint32_t*, std::size_t) {}

template class PendulumPortraitCudaRunner<double>;
template class PendulumPortraitCudaRunner<float>;

}  // namespace geomint
