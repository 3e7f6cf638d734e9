// The "team" that runs one chain's Newton solve: P workers with an index, a barrier and a shared
// scratch array (math §3.2, the partitioned solve). SequentialTeam selects the sequential solver
// (the GPU's thread-per-chain kernels, and the CPU's chains under 2048 spins); the CPU backend's
// teams (src/openmp_team.hpp: the threads of an OpenMP region, or one thread) run the partitioned
// one, as the CUDA backend's thread blocks do (kernels/cuda_block_team.cuh). Host+device code:
// only the barrier differs.
#pragma once

#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/spin/spin_view.hpp"

namespace geomint::spin {

// A team type provides
//   static constexpr bool sequential;       // true only for SequentialTeam
//   GEOMINT_HD int rank() const;            // 0 .. size() - 1
//   GEOMINT_HD int size() const;
//   GEOMINT_HD void barrier() const;        // every worker of the team waits here
//   GEOMINT_HD StridedReals<Real> shared() const;  // team_scratch_reals(...) reals, seen by all
// Every worker runs the same code on the same data, so all reach the same barriers and take the
// same branches: decisions (convergence, failure) are made from shared values read after a
// barrier, never from a value only one worker has.

// The sequential "team": one worker, no barrier, no scratch. Callers that get it run the
// sequential code unchanged (bit-identical to before the team code existed).
struct SequentialTeam {
    static constexpr bool sequential = true;
    GEOMINT_HD int rank() const { return 0; }
    GEOMINT_HD int size() const { return 1; }
    GEOMINT_HD void barrier() const {}
};

// Calls f(i) for this worker's contiguous share of [0, n): worker r gets
// [r ceil(n/P), (r+1) ceil(n/P)). Which worker computes an index never changes its value.
template <class Team, class F>
GEOMINT_HD void team_for(const Team& team, int n, F&& f) {
    const int p = team.size();
    const int chunk = (n + p - 1) / p;
    const int begin = team.rank() * chunk;
    const int end = begin + chunk < n ? begin + chunk : n;
    for (int i = begin; i < end; ++i) f(i);
}

}  // namespace geomint::spin
