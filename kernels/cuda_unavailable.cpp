// Stand-in for the CUDA backend in a build without nvcc: reports the backend as unavailable.
#include <stdexcept>

#include "cuda_backend.hpp"

namespace geomint {

namespace {
const char* const kNoCuda = "geomint was built without CUDA (no nvcc found when it was configured)";
}

CudaDeviceInfo cuda_device_info() { return {false, kNoCuda}; }

template <class Real>
struct PendulumCudaRunner<Real>::Device {};
template <class Real>
PendulumCudaRunner<Real>::PendulumCudaRunner(const PendulumModel&, const PendulumStepSettings<Real>&, std::size_t,
                                             long long) {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
PendulumCudaRunner<Real>::~PendulumCudaRunner() = default;
template <class Real>
float PendulumCudaRunner<Real>::run(const PendulumBatchView<Real>&, std::size_t, Real*) {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
PendulumInputArrays<Real> PendulumCudaRunner<Real>::slot_inputs(int) const {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
PendulumBatchView<Real> PendulumCudaRunner<Real>::slot_view(int) const {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
const Real* PendulumCudaRunner<Real>::slot_saves(int) const {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
void PendulumCudaRunner<Real>::enqueue(int, std::size_t) {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
float PendulumCudaRunner<Real>::wait(int) {
    throw std::runtime_error(kNoCuda);
}
template class PendulumCudaRunner<double>;
template class PendulumCudaRunner<float>;

template <class Real>
struct SpinCudaRunner<Real>::Device {};
template <class Real>
SpinCudaRunner<Real>::SpinCudaRunner(const SpinModel&, const SpinStepSettings<Real>&, int, std::size_t, long long,
                                     SpinChainLayout) {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
SpinCudaRunner<Real>::~SpinCudaRunner() = default;
template <class Real>
float SpinCudaRunner<Real>::run(const SpinBatchView<Real>&, std::size_t, Real*) {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
SpinBatchView<Real> SpinCudaRunner<Real>::slot_view(int, std::size_t) const {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
const Real* SpinCudaRunner<Real>::slot_saves(int) const {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
void SpinCudaRunner<Real>::enqueue(int, std::size_t) {
    throw std::runtime_error(kNoCuda);
}
template <class Real>
float SpinCudaRunner<Real>::wait(int) {
    throw std::runtime_error(kNoCuda);
}
template class SpinCudaRunner<double>;
template class SpinCudaRunner<float>;

}  // namespace geomint
