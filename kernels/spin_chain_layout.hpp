// Which Newton algorithm and which workers run one spin chain: the rule both backends share (the
// CPU's thread or team of threads, the GPU's thread or thread block), so that a chain is solved by
// the same algorithm on either.
#pragma once

#include <cstddef>

#include "geomint/spin/partitioned_block_cyclic.hpp"
#include "geomint/spin/team_newton.hpp"

namespace geomint {

// Whether a chain of `spins` spins is solved by the partitioned Newton
// (include/geomint/spin/team_newton.hpp) rather than the sequential one, for the schemes with a
// team step (the DRG schemes and the midpoint baselines; collocation is always sequential). It
// depends on the chain's length alone: the partitioned solve rounds differently from the
// sequential one and gives the same bits for any number of workers, so a chain's result never
// depends on the thread count, the chunk size or the number of chains beside it.
// Measured with bench/bench_long_chains (bench/RESULTS.md, 2026-12-03): one chain on a team of 2 CPU
// threads against one thread, on the 2-core development machine while other builds kept its load
// near 6, i.e. with no idle core to gain. With OMP_WAIT_POLICY=passive the team's wall time was 1.9
// to 6.8 times one thread's at d = 16, 1.1 to 1.8 at d = 128, and 0.88 to 1.24 from d = 512 to 4096
// (avf, mp, comp4, implicit_midpoint); with the default (spinning) waits it was 3 to 220 times
// slower at every d, each barrier waiting for a descheduled thread. A crossover on idle cores, and
// the GPU's (BM_long_chain_cuda), could not be measured here: d >= 2048 is a first guess, where the
// partition has 128 parts and one Newton iteration (three barriers) is 0.4 to 3 ms of work on one
// CPU core.
inline bool spin_partitioned_newton(int spins) { return spins >= 2048; }

// How the CUDA backend lays chains on threads. automatic: one thread block per chain for the
// chains spin_partitioned_newton picks (and schemes with a team step), one thread per chain
// otherwise. The other two force a layout (tests and benchmarks compare them); forcing one changes
// which algorithm solves a chain, hence its last bits.
enum class SpinChainLayout { automatic, thread_per_chain, block_per_chain };

inline bool spin_block_per_chain(SpinChainLayout layout, int spins) {
    return layout == SpinChainLayout::block_per_chain ||
           (layout == SpinChainLayout::automatic && spin_partitioned_newton(spins));
}

// Threads of the block that runs one chain: one per part of the partition (at most
// spin::partition_max_parts), rounded up to whole warps. The result does not depend on it.
inline int spin_block_threads(int spins) {
    const int parts = spin::partition_parts(spins);
    const int warps = (parts + 31) / 32;
    return 32 * (warps > 0 ? warps : 1);
}

// Reals of team scratch (the partitioned solver's reduced system, the workers' flags) one chain
// run by a block needs, in global memory.
template <class Real>
std::size_t spin_block_scratch_reals(int spins) {
    return spin::team_newton_scratch_reals<3, Real>(spins, spin_block_threads(spins));
}

// A block-per-chain launch: chain t's team scratch at scratch + t scratch_per_chain, `threads`
// threads a block.
template <class Real>
struct SpinBlockLaunch {
    Real* scratch;
    std::size_t scratch_per_chain;
    int threads;
};

}  // namespace geomint
