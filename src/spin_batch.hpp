// Host storage for one chunk of a spin ensemble (structure of arrays) and the CPU backend that
// runs the shared per-chain body over it with OpenMP.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "portrait_cpu_recording.hpp"
#include "run_reporting.hpp"
#include "save_recorder.hpp"
#include "spin_body.hpp"
#include "spin_chain_layout.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

template <class Real>
struct SpinBatch {
    int spins = 1;
    std::size_t chains = 0;
    // Component c of spin i of chain t at state[(3 i + c) * chains + t]; advanced in place.
    std::vector<Real> state;
    std::vector<Real> energy_error, norm_error;
    std::vector<long long> newton_iterations, steps_completed;
    std::vector<std::uint8_t> status;

    void resize(int spin_count, std::size_t chain_count) {
        spins = spin_count;
        chains = chain_count;
        state.assign(3 * static_cast<std::size_t>(spins) * chains, Real(0));
        energy_error.assign(chains, Real(0));
        norm_error.assign(chains, Real(0));
        newton_iterations.assign(chains, 0);
        steps_completed.assign(chains, 0);
        status.assign(chains, 0);
    }
    Real& component(std::size_t chain, int spin, int c) {
        return state[(3 * static_cast<std::size_t>(spin) + c) * chains + chain];
    }
    OutcomeView<Real> outcome() {
        return {energy_error.data(), newton_iterations.data(), steps_completed.data(), status.data()};
    }
    // The batch as the body sees it (no workspace: each backend brings its own).
    SpinBatchView<Real> view() { return {state.data(), nullptr, chains, spins, norm_error.data(), outcome()}; }
};

// Whether the CPU backend runs each chain with all `threads` threads instead of one thread per
// chain: chains solved by the partitioned Newton (spin_partitioned_newton,
// kernels/spin_chain_layout.hpp), fewer than the threads (some would idle).
bool spin_chains_share_threads(std::size_t chains, int spins, int threads);

// Runs every chain on `threads` CPU threads (0: OpenMP's default). Each chain is gathered into
// a contiguous per-thread buffer (stride 1) and run by the same body as on the GPU; the results
// do not depend on the layout, the thread count or the chunking. `progress` (if set) is
// called as chains finish. What the bodies record besides the final state, at most one of:
// `saves`, the states it asks for (kernels/save_recorder.hpp); `portrait`, every state its
// schedule picks, into the running thread's histogram (one for each of the `threads`). Every
// ensemble run and every portrait runs through this one loop. When spin_chains_share_threads()
// says so, each chain is run in turn by all the threads; the bits are the same either way.
template <class Real>
void run_spin_batch_cpu(const SpinModel& model, const SpinStepSettings<Real>& step, SpinBatch<Real>& batch, int threads,
                        const ProgressCallback& progress = {}, const SaveRecorder<Real>* saves = nullptr,
                        const CpuPortraitRecording* portrait = nullptr);

}  // namespace geomint
