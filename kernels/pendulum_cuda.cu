// CUDA backend for pendulum ensembles: structure-of-arrays in device memory (kept for the run),
// one thread per trajectory running the same body as the CPU backend (kernels/pendulum_body.hpp).
#include "cuda_backend.hpp"
#include "device_arrays.cuh"
#include "for_each_index.cuh"

namespace geomint {

template <class Real>
struct PendulumCudaRunner<Real>::Device {
    PendulumModel model;
    PendulumStepSettings<Real> step;
    thrust::device_vector<Real> q0, p0, mass, omega, q, p;
    thrust::device_vector<Real> saves;  // with --save-every: [save][trajectory][q, p]
    DeviceOutcome<Real> outcome;

    Device(const PendulumModel& m, const PendulumStepSettings<Real>& s, std::size_t capacity)
        : model(m),
          step(s),
          q0(capacity),
          p0(capacity),
          mass(capacity),
          omega(capacity),
          q(capacity),
          p(capacity),
          outcome(capacity) {}
};

template <class Real>
PendulumCudaRunner<Real>::PendulumCudaRunner(const PendulumModel& model, const PendulumStepSettings<Real>& step,
                                             std::size_t capacity)
    : device_(std::make_unique<Device>(model, step, capacity)) {}

template <class Real>
PendulumCudaRunner<Real>::~PendulumCudaRunner() = default;

template <class Real>
float PendulumCudaRunner<Real>::run(const PendulumBatchView<Real>& host, std::size_t n, Real* saves,
                                    long long save_every) {
    if (n == 0) return 0.0f;
    if (n > device_->q0.size()) throw std::invalid_argument("chunk larger than the CUDA runner's capacity");
    Device& d = *device_;
    upload(host.q0, n, d.q0);
    upload(host.p0, n, d.p0);
    upload(host.mass, n, d.mass);
    upload(host.omega, n, d.omega);
    const PendulumBatchView<Real> view{device_pointer(d.q0),    device_pointer(d.p0), device_pointer(d.mass),
                                       device_pointer(d.omega), device_pointer(d.q),  device_pointer(d.p),
                                       d.outcome.view()};
    float milliseconds = 0.0f;
    with_pendulum_types<Real>(d.model, [&](auto scheme, auto potential) {
        using Scheme = decltype(scheme);
        using Potential = decltype(potential);
        if (saves == nullptr) {
            using Body = PendulumTrajectoryBody<Scheme, Potential, Real>;
            milliseconds = launch_for_each_index(Body{scheme, potential, view, d.step}, n);
        } else {
            using Body = PendulumTrajectoryBody<Scheme, Potential, Real, SaveRecorder<Real>>;
            const SaveRecorder<Real> recorder = device_saves(d.saves, n, 2, save_every, d.step.steps);
            milliseconds = launch_for_each_index(Body{scheme, potential, view, d.step, recorder}, n);
        }
    });
    if (saves != nullptr)
        download(d.saves, static_cast<std::size_t>(save_count(d.step.steps, save_every)) * n * 2, saves);
    download(d.q, n, host.q);
    download(d.p, n, host.p);
    d.outcome.download_to(host.outcome, n);
    return milliseconds;
}

template class PendulumCudaRunner<double>;
template class PendulumCudaRunner<float>;

}  // namespace geomint
