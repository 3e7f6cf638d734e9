// CUDA pendulum portraits: the pendulum body with a recorder that bins each recorded state into
// the device histogram with atomic adds (integer sums: the order of the threads does not matter).
#include <stdexcept>

#include "copy_outcome.hpp"
#include "cuda_buffers.cuh"
#include "for_each_index.cuh"
#include "geomint/portrait/trajectory_recorders.hpp"
#include "pendulum_portrait_cuda.hpp"
#include "portrait_histogram.cuh"

namespace geomint {

template <class Real>
struct PendulumPortraitCudaRunner<Real>::Device {
    PendulumModel model;
    PendulumStepSettings<Real> step;
    std::size_t capacity;
    portrait::PixelGrid grid;
    portrait::RecordSchedule schedule;
    bool wrap;
    DeviceArray<Real> q0, p0, mass, omega, q, p;
    DeviceArray<std::uint32_t> codes;
    MirroredOutcome<Real> outcome;      // the pinned side is copied to the caller's arrays
    portrait::HistogramView histogram;  // device memory, the caller's

    Device(const PendulumModel& m, const PendulumStepSettings<Real>& s, std::size_t n, const portrait::PixelGrid& g,
           portrait::HistogramView h, portrait::RecordSchedule r, bool w)
        : model(m),
          step(s),
          capacity(n),
          grid(g),
          schedule(r),
          wrap(w),
          q0(n),
          p0(n),
          mass(n),
          omega(n),
          q(n),
          p(n),
          codes(h.energy_sums != nullptr ? n : 0),
          outcome(n),
          histogram(h) {}
};

template <class Real>
PendulumPortraitCudaRunner<Real>::PendulumPortraitCudaRunner(const PendulumModel& model,
                                                             const PendulumStepSettings<Real>& step,
                                                             std::size_t capacity, const portrait::PixelGrid& grid,
                                                             portrait::HistogramView histogram,
                                                             portrait::RecordSchedule schedule, bool wrap)
    : device_(std::make_unique<Device>(model, step, capacity, grid, histogram, schedule, wrap)) {}

template <class Real>
PendulumPortraitCudaRunner<Real>::~PendulumPortraitCudaRunner() = default;

template <class Real>
void PendulumPortraitCudaRunner<Real>::run(const PendulumBatchView<Real>& host, const std::uint32_t* energy_codes,
                                           std::size_t n) {
    if (n == 0) return;
    Device& d = *device_;
    if (n > d.capacity) throw std::invalid_argument("chunk larger than the CUDA runner's capacity");
    copy_to_device(d.q0.data(), host.q0, n);
    copy_to_device(d.p0.data(), host.p0, n);
    copy_to_device(d.mass.data(), host.mass, n);
    copy_to_device(d.omega.data(), host.omega, n);
    const bool with_codes = energy_codes != nullptr && d.codes.size() > 0;
    if (with_codes) copy_to_device(d.codes.data(), energy_codes, n);
    const PendulumBatchView<Real> view{d.q0.data(), d.p0.data(), d.mass.data(),          d.omega.data(),
                                       d.q.data(),  d.p.data(),  d.outcome.device_view()};
    using Recorder = portrait::PendulumPortraitRecorder<portrait::AtomicRecorder>;
    const Recorder recorder{portrait::AtomicRecorder{portrait::PixelMapper(d.grid), d.histogram}, d.schedule, d.wrap,
                            with_codes ? d.codes.data() : nullptr};
    with_pendulum_types<Real>(d.model, [&](auto scheme, auto potential) {
        using Body = PendulumTrajectoryBody<decltype(scheme), decltype(potential), Real, Recorder>;
        launch_for_each_index(Body{scheme, potential, view, d.step, recorder}, n);  // synchronized
    });
    d.outcome.download_async(n, cudaStreamLegacy);
    GEOMINT_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
    copy_outcome(d.outcome.host_view(), host.outcome, n);
}

template class PendulumPortraitCudaRunner<double>;
template class PendulumPortraitCudaRunner<float>;

}  // namespace geomint
