// CUDA backend for spin ensembles: state and Newton workspace in device memory, structure of
// arrays (neighbouring threads read neighbouring addresses), one thread per chain running the
// same body as the CPU backend (kernels/spin_body.hpp).
#include <thrust/device_vector.h>

#include "backends/cuda_backend.hpp"
#include "spin_cuda_launch.cuh"

namespace geomint {

float run_spin_batch_cuda(const SpinRunSettings& settings, SpinBatch& batch) {
    const std::size_t n = batch.chains;
    if (n == 0) return 0.0f;
    const std::size_t work_reals = spin_workspace_reals(settings, batch.spins);
    thrust::device_vector<double> state(batch.state);
    thrust::device_vector<double> workspace(work_reals * n);
    thrust::device_vector<double> energy_error(n), norm_error(n);
    thrust::device_vector<long long> newton_iterations(n), steps_completed(n);
    thrust::device_vector<std::uint8_t> status(n);
    const SpinBatchView<double> view{thrust::raw_pointer_cast(state.data()),
                                     thrust::raw_pointer_cast(workspace.data()),
                                     n,
                                     batch.spins,
                                     thrust::raw_pointer_cast(energy_error.data()),
                                     thrust::raw_pointer_cast(norm_error.data()),
                                     thrust::raw_pointer_cast(newton_iterations.data()),
                                     thrust::raw_pointer_cast(steps_completed.data()),
                                     thrust::raw_pointer_cast(status.data())};
    float milliseconds = 0.0f;
    with_spin_system<double>(settings.system,
                             [&](const auto& system) { milliseconds = launch_spin_chains(settings, system, view); });
    thrust::copy(state.begin(), state.end(), batch.state.begin());
    thrust::copy(energy_error.begin(), energy_error.end(), batch.energy_error.begin());
    thrust::copy(norm_error.begin(), norm_error.end(), batch.norm_error.begin());
    thrust::copy(newton_iterations.begin(), newton_iterations.end(), batch.newton_iterations.begin());
    thrust::copy(steps_completed.begin(), steps_completed.end(), batch.steps_completed.begin());
    thrust::copy(status.begin(), status.end(), batch.status.begin());
    return milliseconds;
}

}  // namespace geomint
