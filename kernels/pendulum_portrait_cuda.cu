// CUDA pendulum portraits: the pendulum body with a recorder that bins each recorded state into
// the device histogram with atomic adds (integer sums: the order of the threads does not matter).
#include "device_arrays.cuh"
#include "for_each_index.cuh"
#include "geomint/portrait/trajectory_recorders.hpp"
#include "pendulum_portrait_cuda.hpp"
#include "portrait_histogram.cuh"

namespace geomint {

template <class Real>
struct PendulumPortraitCudaRunner<Real>::Device {
    PendulumModel model;
    PendulumStepSettings<Real> step;
    portrait::PixelGrid grid;
    portrait::RecordSchedule schedule;
    bool wrap;
    thrust::device_vector<Real> q0, p0, mass, omega, q, p;
    thrust::device_vector<std::uint32_t> codes;
    DeviceOutcome<Real> outcome;
    portrait::HistogramView histogram;  // device memory, the caller's

    Device(const PendulumModel& m, const PendulumStepSettings<Real>& s, std::size_t capacity,
           const portrait::PixelGrid& g, portrait::HistogramView h, portrait::RecordSchedule r, bool w)
        : model(m),
          step(s),
          grid(g),
          schedule(r),
          wrap(w),
          q0(capacity),
          p0(capacity),
          mass(capacity),
          omega(capacity),
          q(capacity),
          p(capacity),
          codes(h.energy_sums != nullptr ? capacity : 0),
          outcome(capacity),
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
    if (n > d.q0.size()) throw std::invalid_argument("chunk larger than the CUDA runner's capacity");
    upload(host.q0, n, d.q0);
    upload(host.p0, n, d.p0);
    upload(host.mass, n, d.mass);
    upload(host.omega, n, d.omega);
    const bool with_codes = energy_codes != nullptr && !d.codes.empty();
    if (with_codes) upload(energy_codes, n, d.codes);
    const PendulumBatchView<Real> view{device_pointer(d.q0),    device_pointer(d.p0), device_pointer(d.mass),
                                       device_pointer(d.omega), device_pointer(d.q),  device_pointer(d.p),
                                       d.outcome.view()};
    using Recorder = portrait::PendulumPortraitRecorder<portrait::AtomicRecorder>;
    const Recorder recorder{portrait::AtomicRecorder{portrait::PixelMapper(d.grid), d.histogram}, d.schedule, d.wrap,
                            with_codes ? device_pointer(d.codes) : nullptr};
    with_pendulum_types<Real>(d.model, [&](auto scheme, auto potential) {
        using Body = PendulumTrajectoryBody<decltype(scheme), decltype(potential), Real, Recorder>;
        launch_for_each_index(Body{scheme, potential, view, d.step, recorder}, n);
    });
    d.outcome.download_to(host.outcome, n);
}

template class PendulumPortraitCudaRunner<double>;
template class PendulumPortraitCudaRunner<float>;

}  // namespace geomint
