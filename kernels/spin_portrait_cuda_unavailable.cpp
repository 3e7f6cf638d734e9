// Stand-in for the CUDA spin portrait in a build without nvcc: constructing one throws.
#include <stdexcept>

#include "spin_portrait_cuda.hpp"

namespace geomint {

template <class Real>
struct SpinPortraitCudaRunner<Real>::Device {};

template <class Real>
SpinPortraitCudaRunner<Real>::SpinPortraitCudaRunner(const SpinModel&, const SpinStepSettings<Real>&, int, std::size_t,
                                                     const portrait::PixelGrid&, portrait::HistogramView,
                                                     portrait::RecordSchedule, portrait::SpinPlaneChoice) {
    throw std::runtime_error("geomint was built without CUDA (no nvcc found when it was configured)");
}
template <class Real>
SpinPortraitCudaRunner<Real>::~SpinPortraitCudaRunner() = default;
template <class Real>
void SpinPortraitCudaRunner<Real>::run(const Real*, const std::uint32_t*, std::size_t, std::uint8_t*) {}

template class SpinPortraitCudaRunner<double>;
template class SpinPortraitCudaRunner<float>;

}  // namespace geomint
