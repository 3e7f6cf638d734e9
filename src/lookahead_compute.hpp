// Runs one step of the look-ahead schedule (chunk_lookahead.hpp) on a double-buffered CUDA runner
// (PendulumCudaRunner, SpinCudaRunner): the asked chunk's results end up in the returned slot,
// and the next chunk is already queued in the other slot when this returns.
#pragma once

#include <cstddef>
#include <cstdint>

#include "chunk_lookahead.hpp"

namespace geomint {

// Where the asked chunk's results are, and its kernel's time (CUDA events) in milliseconds.
struct LookaheadResult {
    int slot;
    float kernel_milliseconds;
};

// `fill(slot, begin, n)` writes the inputs of trajectories [begin, begin + n) into the slot's
// pinned host buffers. On an exception both slots
// are waited for (errors ignored: the first one is reported) and the look-ahead is forgotten, so
// the runner is idle and can be destroyed or used again.
template <class Runner, class Fill>
LookaheadResult compute_with_lookahead(ChunkLookahead& schedule, Runner& runner, std::uint64_t begin, std::size_t n,
                                       Fill&& fill) {
    const LookaheadStep s = schedule.step(begin, n);
    float milliseconds = 0.0f;
    try {
        if (s.discard_slot) runner.wait(*s.discard_slot);
        if (!s.ready) {
            fill(s.slot, begin, n);
            runner.enqueue(s.slot, n);
        }
        // Queued before waiting: the device computes chunk k + 1 while the pipeline writes chunk k.
        if (s.next) {
            fill(s.next_slot, s.next->begin, s.next->n);
            runner.enqueue(s.next_slot, s.next->n);
        }
        milliseconds = runner.wait(s.slot);
    } catch (...) {
        schedule.reset();
        for (int slot = 0; slot < Runner::kSlots; ++slot) {
            try {
                runner.wait(slot);
            } catch (...) {
            }
        }
        throw;
    }
    return {s.slot, milliseconds};
}

}  // namespace geomint
