// CUDA backend for pendulum ensembles: structure-of-arrays in device memory (Thrust vectors),
// one thread per trajectory running the same body as the CPU backend (kernels/pendulum_body.hpp).
#include <thrust/device_vector.h>

#include "backends/cuda_backend.hpp"
#include "for_each_index.cuh"

namespace geomint {

template <class Real>
float run_pendulum_batch_cuda(const PendulumRunSettings<Real>& settings, PendulumBatch<Real>& batch) {
    const std::size_t n = batch.size();
    if (n == 0) return 0.0f;
    // thrust::device_vector allocates, copies and frees, and throws on any CUDA error.
    thrust::device_vector<Real> q0(batch.q0), p0(batch.p0), mass(batch.mass), omega(batch.omega);
    thrust::device_vector<Real> q(n), p(n), energy_error(n);
    thrust::device_vector<long long> newton_iterations(n), steps_completed(n);
    thrust::device_vector<std::uint8_t> status(n);
    const PendulumBatchView<Real> view{
        thrust::raw_pointer_cast(q0.data()),           thrust::raw_pointer_cast(p0.data()),
        thrust::raw_pointer_cast(mass.data()),         thrust::raw_pointer_cast(omega.data()),
        thrust::raw_pointer_cast(q.data()),            thrust::raw_pointer_cast(p.data()),
        thrust::raw_pointer_cast(energy_error.data()), thrust::raw_pointer_cast(newton_iterations.data()),
        thrust::raw_pointer_cast(steps_completed.data()), thrust::raw_pointer_cast(status.data())};
    float milliseconds = 0.0f;
    with_pendulum_types<Real>(settings.scheme, settings.potential, [&](auto scheme, auto potential) {
        using Body = PendulumTrajectoryBody<decltype(scheme), decltype(potential), Real>;
        milliseconds = launch_for_each_index(Body{scheme, view, settings.step}, n);
    });
    thrust::copy(q.begin(), q.end(), batch.q.begin());
    thrust::copy(p.begin(), p.end(), batch.p.begin());
    thrust::copy(energy_error.begin(), energy_error.end(), batch.energy_error.begin());
    thrust::copy(newton_iterations.begin(), newton_iterations.end(), batch.newton_iterations.begin());
    thrust::copy(steps_completed.begin(), steps_completed.end(), batch.steps_completed.begin());
    thrust::copy(status.begin(), status.end(), batch.status.begin());
    return milliseconds;
}

template float run_pendulum_batch_cuda<double>(const PendulumRunSettings<double>&, PendulumBatch<double>&);
template float run_pendulum_batch_cuda<float>(const PendulumRunSettings<float>&, PendulumBatch<float>&);

}  // namespace geomint
