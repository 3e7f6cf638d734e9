// CUDA backend for spin ensembles: state and Newton workspace in device memory (kept for the run),
// structure of arrays (neighbouring threads read neighbouring addresses), one thread per chain
// running the same body as the CPU backend (kernels/spin_body.hpp).
#include <utility>

#include "cuda_backend.hpp"
#include "device_arrays.cuh"
#include "spin_cuda_launch.hpp"

#ifndef GEOMINT_SPIN_CUDA_UNITS
#error "compile with -DGEOMINT_SPIN_CUDA_UNITS=n (CMake does)"
#endif

namespace geomint {

static_assert(spin::SpinSystems::size <= GEOMINT_SPIN_CUDA_UNITS,
              "more spin systems than CUDA translation units: raise GEOMINT_SPIN_CUDA_UNITS in CMakeLists.txt");

namespace {

template <class Real, int... Index>
float launch_for_system(const SpinModel& model, const SpinStepSettings<Real>& step, const SpinBatchView<Real>& view,
                        const SaveRecorder<Real>* saves, std::integer_sequence<int, Index...>) {
    float milliseconds = 0.0f;
    const bool found =
        ((model.system == Index ? (milliseconds = launch_spin_system<Index, Real>(model, step, view, saves), true)
                                : false) ||
         ...);
    if (!found) throw std::invalid_argument("spin system not registered");
    return milliseconds;
}

}  // namespace

template <class Real>
struct SpinCudaRunner<Real>::Device {
    SpinModel model;
    SpinStepSettings<Real> step;
    int spins;
    std::size_t capacity;
    thrust::device_vector<Real> state, workspace, norm_error;
    thrust::device_vector<Real> saves;  // with --save-every: [save][chain][3 d]
    DeviceOutcome<Real> outcome;

    Device(const SpinModel& m, const SpinStepSettings<Real>& s, int d, std::size_t n)
        : model(m),
          step(s),
          spins(d),
          capacity(n),
          state(3 * static_cast<std::size_t>(d) * n),
          workspace(spin_workspace_reals(m, d) * n),
          norm_error(n),
          outcome(n) {}
};

template <class Real>
SpinCudaRunner<Real>::SpinCudaRunner(const SpinModel& model, const SpinStepSettings<Real>& step, int spins,
                                     std::size_t capacity)
    : device_(std::make_unique<Device>(model, step, spins, capacity)) {}

template <class Real>
SpinCudaRunner<Real>::~SpinCudaRunner() = default;

template <class Real>
float SpinCudaRunner<Real>::run(const SpinBatchView<Real>& host, std::size_t n, Real* saves, long long save_every) {
    if (n == 0) return 0.0f;
    Device& d = *device_;
    if (n > d.capacity || host.spins != d.spins) throw std::invalid_argument("chunk does not fit the CUDA runner");
    const std::size_t state_reals = 3 * static_cast<std::size_t>(d.spins) * n;
    upload(host.state, state_reals, d.state);
    const SpinBatchView<Real> view{
        device_pointer(d.state), device_pointer(d.workspace), n, d.spins, device_pointer(d.norm_error),
        d.outcome.view()};
    const int dim = 3 * d.spins;
    SaveRecorder<Real> recorder{};
    if (saves != nullptr) recorder = device_saves(d.saves, n, dim, save_every, d.step.steps);
    const float milliseconds = launch_for_system<Real>(d.model, d.step, view, saves != nullptr ? &recorder : nullptr,
                                                       std::make_integer_sequence<int, spin::SpinSystems::size>{});
    if (saves != nullptr)
        download(d.saves, static_cast<std::size_t>(save_count(d.step.steps, save_every)) * n * dim, saves);
    download(d.state, state_reals, host.state);
    download(d.norm_error, n, host.norm_error);
    d.outcome.download_to(host.outcome, n);
    return milliseconds;
}

template class SpinCudaRunner<double>;

}  // namespace geomint
