// CPU backend for spin ensembles: an OpenMP loop over the shared per-chain body.
#include <omp.h>

#include "spin_batch.hpp"

namespace geomint {

void SpinBatch::resize(int spin_count, std::size_t chain_count) {
    spins = spin_count;
    chains = chain_count;
    state.assign(3 * static_cast<std::size_t>(spins) * chains, 0.0);
    for (auto* v : {&energy_error, &norm_error}) v->assign(chains, 0.0);
    newton_iterations.assign(chains, 0);
    steps_completed.assign(chains, 0);
    status.assign(chains, 0);
}

std::size_t spin_workspace_reals(const SpinRunSettings& settings, int spins) {
    std::size_t reals = 0;
    with_spin_types<double>(settings.system, settings.scheme,
                            [&](auto scheme, auto) { reals = spin::workspace_reals(scheme, spins); });
    return reals;
}

void run_spin_batch_cpu(const SpinRunSettings& settings, SpinBatch& batch, int threads,
                        const ProgressCallback& progress) {
    const auto n = static_cast<long long>(batch.chains);
    const int thread_count = threads > 0 ? threads : omp_get_max_threads();
    const std::size_t state_reals = 3 * static_cast<std::size_t>(batch.spins);
    const std::size_t work_reals = spin_workspace_reals(settings, batch.spins);
    with_spin_types<double>(settings.system, settings.scheme, [&](auto scheme, auto system) {
        using Body = SpinChainBody<decltype(scheme), decltype(system), double>;
#pragma omp parallel num_threads(thread_count)
        {
            // One contiguous chain per thread: the body sees it as an ensemble of one.
            std::vector<double> state(state_reals), workspace(work_reals);
            double energy_error = 0, norm_error = 0;
            long long iterations = 0, steps = 0;
            std::uint8_t status = 0;
            const SpinBatchView<double> local{state.data(), workspace.data(), 1,      batch.spins, &energy_error,
                                              &norm_error,  &iterations,      &steps, &status};
            const Body body{scheme, system, local, settings.step};
#pragma omp for schedule(dynamic, 4)
            for (long long t = 0; t < n; ++t) {
                for (std::size_t k = 0; k < state_reals; ++k) state[k] = batch.state[k * batch.chains + t];
                body(0);
                for (std::size_t k = 0; k < state_reals; ++k) batch.state[k * batch.chains + t] = state[k];
                batch.energy_error[t] = energy_error;
                batch.norm_error[t] = norm_error;
                batch.newton_iterations[t] = iterations;
                batch.steps_completed[t] = steps;
                batch.status[t] = status;
                if (progress) progress(1);
            }
        }
    });
}

}  // namespace geomint
