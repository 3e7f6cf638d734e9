// Host storage for one chunk of a spin ensemble (structure of arrays) and the CPU backend that
// runs the shared per-chain body over it with OpenMP.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "run_reporting.hpp"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

struct SpinRunSettings {
    SpinSystemParameters system;
    std::string scheme = "avf";
    SpinStepSettings<double> step{};
};

struct SpinBatch {
    int spins = 1;
    std::size_t chains = 0;
    // Component c of spin i of chain t at state[(3 i + c) * chains + t]; advanced in place.
    std::vector<double> state;
    std::vector<double> energy_error, norm_error;
    std::vector<long long> newton_iterations, steps_completed;
    std::vector<std::uint8_t> status;

    void resize(int spin_count, std::size_t chain_count);
    double& component(std::size_t chain, int spin, int c) {
        return state[(3 * static_cast<std::size_t>(spin) + c) * chains + chain];
    }
};

// Reals of workspace one chain needs for the run's scheme (O(spins)).
std::size_t spin_workspace_reals(const SpinRunSettings& settings, int spins);

// Runs every chain on `threads` CPU threads (0: OpenMP's default). Each chain is gathered into
// a contiguous per-thread buffer (stride 1) and run by the same body as on the GPU; the results
// do not depend on the layout, the thread count or the chunking. `progress` (if set) is
// called as chains finish.
void run_spin_batch_cpu(const SpinRunSettings& settings, SpinBatch& batch, int threads,
                        const ProgressCallback& progress = {});

}  // namespace geomint
