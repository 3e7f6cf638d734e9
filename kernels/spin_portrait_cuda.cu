// CUDA spin portraits: the per-chain spin body with a recorder that bins each recorded state into
// the device histogram with atomic adds (integer sums: the order of the threads does not matter).
#include <stdexcept>
#include <utility>

#include "cuda_buffers.cuh"
#include "spin_portrait_cuda.hpp"
#include "spin_portrait_cuda_launch.cuh"

namespace geomint {

namespace {

template <class Real, int... Index>
void enqueue_portrait_for_system(const SpinModel& model, const SpinStepSettings<Real>& step,
                                 const SpinBatchView<Real>& view, const SpinPortraitDeviceRecorder& recorder,
                                 std::integer_sequence<int, Index...>) {
    const bool found = ((model.system == Index
                             ? (enqueue_spin_portrait_system<Index, Real>(model, step, view, recorder, nullptr), true)
                             : false) ||
                        ...);
    if (!found) throw std::invalid_argument("spin system not registered");
}

}  // namespace

template <class Real>
struct SpinPortraitCudaRunner<Real>::Device {
    SpinModel model;
    SpinStepSettings<Real> step;
    int spins;
    std::size_t capacity;
    portrait::PixelGrid grid;
    portrait::RecordSchedule schedule;
    portrait::SpinPlaneChoice plane;
    DeviceArray<Real> state, workspace, norm_error, energy_error;
    DeviceArray<long long> newton_iterations, steps_completed;
    DeviceArray<std::uint8_t> status;
    DeviceArray<std::uint32_t> codes;
    portrait::HistogramView histogram;  // device memory, the caller's

    Device(const SpinModel& m, const SpinStepSettings<Real>& s, int d, std::size_t n, const portrait::PixelGrid& g,
           portrait::HistogramView h, portrait::RecordSchedule r, portrait::SpinPlaneChoice p)
        : model(m),
          step(s),
          spins(d),
          capacity(n),
          grid(g),
          schedule(r),
          plane(p),
          state(3 * static_cast<std::size_t>(d) * n),
          workspace(spin_workspace_reals(m, d) * n),
          norm_error(n),
          energy_error(n),
          newton_iterations(n),
          steps_completed(n),
          status(n),
          codes(h.energy_sums != nullptr ? n : 0),
          histogram(h) {}
    // The kernels run on the legacy default stream and every run() ends synchronized, but a run
    // that threw half-way may have left one queued: wait (ignoring errors) before freeing.
    ~Device() { cudaDeviceSynchronize(); }
};

template <class Real>
SpinPortraitCudaRunner<Real>::SpinPortraitCudaRunner(const SpinModel& model, const SpinStepSettings<Real>& step,
                                                     int spins, std::size_t capacity, const portrait::PixelGrid& grid,
                                                     portrait::HistogramView histogram,
                                                     portrait::RecordSchedule schedule, portrait::SpinPlaneChoice plane)
    : device_(std::make_unique<Device>(model, step, spins, capacity, grid, histogram, schedule, plane)) {}

template <class Real>
SpinPortraitCudaRunner<Real>::~SpinPortraitCudaRunner() = default;

template <class Real>
void SpinPortraitCudaRunner<Real>::run(const Real* state, const std::uint32_t* energy_codes, std::size_t n,
                                       std::uint8_t* status) {
    if (n == 0) return;
    Device& d = *device_;
    if (n > d.capacity) throw std::invalid_argument("chunk larger than the CUDA runner's capacity");
    copy_to_device(d.state.data(), state, 3 * static_cast<std::size_t>(d.spins) * n);
    const bool with_codes = energy_codes != nullptr && d.codes.size() > 0;
    if (with_codes) copy_to_device(d.codes.data(), energy_codes, n);
    const SpinBatchView<Real> view{d.state.data(),
                                   d.workspace.data(),
                                   n,
                                   d.spins,
                                   d.norm_error.data(),
                                   OutcomeView<Real>{d.energy_error.data(), d.newton_iterations.data(),
                                                     d.steps_completed.data(), d.status.data()}};
    const SpinPortraitDeviceRecorder recorder{portrait::AtomicRecorder{portrait::PixelMapper(d.grid), d.histogram},
                                              d.schedule, d.plane, with_codes ? d.codes.data() : nullptr};
    enqueue_portrait_for_system<Real>(d.model, d.step, view, recorder,
                                      std::make_integer_sequence<int, spin::SpinSystems::size>{});
    GEOMINT_CUDA_CHECK(cudaDeviceSynchronize());
    copy_to_host(status, d.status.data(), n);
}

template class SpinPortraitCudaRunner<double>;
template class SpinPortraitCudaRunner<float>;

}  // namespace geomint
