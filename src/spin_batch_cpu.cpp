// CPU backend for spin ensembles: an OpenMP loop over the shared per-chain body.
#include <omp.h>

#include <stdexcept>
#include <type_traits>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/team_newton.hpp"
#include "openmp_team.hpp"
#include "spin_batch.hpp"

namespace geomint {

bool spin_chains_share_threads(std::size_t chains, int spins, int threads) {
    return threads > 1 && chains < static_cast<std::size_t>(threads) && spin_partitioned_newton(spins);
}

template <class Real>
void run_spin_batch_cpu(const SpinModel& model, const SpinStepSettings<Real>& step, SpinBatch<Real>& batch, int threads,
                        const ProgressCallback& progress, const SaveRecorder<Real>* saves,
                        const CpuPortraitRecording* portrait) {
    const auto n = static_cast<long long>(batch.chains);
    const int thread_count = threads > 0 ? threads : omp_get_max_threads();
    if (portrait != nullptr && (saves != nullptr || portrait->threads < thread_count))
        throw std::invalid_argument("a spin batch records saves or a portrait with a histogram per thread");
    const std::size_t state_reals = 3 * static_cast<std::size_t>(batch.spins);
    const std::size_t work_reals = spin_workspace_reals(model, batch.spins);
    // Every thread's contiguous chain and workspace, allocated here, before the parallel region:
    // an allocation failure is then an ordinary std::bad_alloc for the caller, not a terminate()
    // inside OpenMP.
    // A chain solved by the partitioned Newton (spin_partitioned_newton) also needs its team's
    // scratch, here for a team of one thread.
    const bool partitioned = spin_partitioned_newton(batch.spins);
    const std::size_t solo_reals = partitioned ? spin::team_newton_scratch_reals<3, Real>(batch.spins, 1) : 0;
    const std::size_t per_thread = state_reals + work_reals + solo_reals;
    std::vector<Real> buffers(per_thread * static_cast<std::size_t>(thread_count));
    // One loop for every recorder; the one without a recorder is compiled as before (NoRecorder).
    // The body runs chain t as chain 0 of its one-chain view: `recorder_of(thread, t)` gives the
    // recorder of chain t on that thread (a portrait's records into the thread's own histogram).
    const auto run = [&](auto scheme, auto system, const auto& recorder_of) {
        using Recorder = std::decay_t<decltype(recorder_of(0, std::size_t{0}))>;
        using Body = SpinChainBody<decltype(scheme), decltype(system), Real, Recorder>;
#pragma omp parallel num_threads(thread_count)
        {
            const int thread = omp_get_thread_num();
            // One contiguous chain per thread: the body sees it as an ensemble of one.
            Real* state = buffers.data() + per_thread * static_cast<std::size_t>(thread);
            Real* workspace = state + state_reals;
            Real energy_error = 0, norm_error = 0;
            long long iterations = 0, steps = 0;
            std::uint8_t status = 0;
            const SpinBatchView<Real> local{
                state,       workspace,   1,
                batch.spins, &norm_error, OutcomeView<Real>{&energy_error, &iterations, &steps, &status}};
#pragma omp for schedule(dynamic, 4)
            for (long long t = 0; t < n; ++t) {
                for (std::size_t k = 0; k < state_reals; ++k) state[k] = batch.state[k * batch.chains + t];
                const Body body{scheme, system, local, step, recorder_of(thread, static_cast<std::size_t>(t))};
                if constexpr (spin::TeamStep<decltype(scheme), decltype(system), Real>) {
                    if (partitioned)
                        body.run(0, SoloTeam<Real>{{workspace + work_reals, 1}});
                    else
                        body(0);
                } else {
                    body(0);
                }
                for (std::size_t k = 0; k < state_reals; ++k) batch.state[k * batch.chains + t] = state[k];
                batch.norm_error[t] = norm_error;
                batch.outcome().set(t, energy_error, iterations, steps, static_cast<SolveStatus>(status));
                if (progress) progress(1);
            }
        }
    };
    // One chain at a time, all threads on it (spin_chains_share_threads): the chain and its
    // workspace in thread 0's part of buffers, the team's shared scratch in a vector of its own, the
    // body's team entry on every thread. Allocated before the parallel region, as above.
    const auto run_shared = [&](auto scheme, auto system, const auto& recorder_of) {
        using Recorder = std::decay_t<decltype(recorder_of(0, std::size_t{0}))>;
        using Body = SpinChainBody<decltype(scheme), decltype(system), Real, Recorder>;
        std::vector<Real> scratch(spin::team_newton_scratch_reals<3, Real>(batch.spins, thread_count));
        Real* state = buffers.data();
        Real energy_error = 0, norm_error = 0;
        long long iterations = 0, steps = 0;
        std::uint8_t status = 0;
        const SpinBatchView<Real> local{state,       state + state_reals,
                                        1,           batch.spins,
                                        &norm_error, OutcomeView<Real>{&energy_error, &iterations, &steps, &status}};
        for (long long t = 0; t < n; ++t) {
            for (std::size_t k = 0; k < state_reals; ++k) state[k] = batch.state[k * batch.chains + t];
            // Worker 0 records (a portrait into histogram 0).
            const Body body{scheme, system, local, step, recorder_of(0, static_cast<std::size_t>(t))};
#pragma omp parallel num_threads(thread_count)
            body.run(0, OpenMpTeam<Real>{omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}});
            for (std::size_t k = 0; k < state_reals; ++k) batch.state[k * batch.chains + t] = state[k];
            batch.norm_error[t] = norm_error;
            batch.outcome().set(t, energy_error, iterations, steps, static_cast<SolveStatus>(status));
            if (progress) progress(1);
        }
    };
    const bool share = spin_chains_share_threads(batch.chains, batch.spins, thread_count);
    // Calls runner (run or run_shared) with the recorder the caller asked for.
    const auto with_recorder = [&](const auto& runner, auto scheme, auto system) {
        if (portrait != nullptr)
            runner(scheme, system, [&](int thread, std::size_t t) { return portrait->spin(thread, t); });
        else if (saves != nullptr)
            runner(scheme, system, [&](int, std::size_t t) { return saves->starting_at(t); });
        else
            runner(scheme, system, [](int, std::size_t) { return NoRecorder{}; });
    };
    with_spin_types<Real>(model, [&](auto scheme, auto system) {
        if constexpr (spin::TeamStep<decltype(scheme), decltype(system), Real>) {
            if (share) {
                with_recorder(run_shared, scheme, system);
                return;
            }
        }
        with_recorder(run, scheme, system);
    });
}

template void run_spin_batch_cpu<double>(const SpinModel&, const SpinStepSettings<double>&, SpinBatch<double>&, int,
                                         const ProgressCallback&, const SaveRecorder<double>*,
                                         const CpuPortraitRecording*);
template void run_spin_batch_cpu<float>(const SpinModel&, const SpinStepSettings<float>&, SpinBatch<float>&, int,
                                        const ProgressCallback&, const SaveRecorder<float>*,
                                        const CpuPortraitRecording*);

}  // namespace geomint
