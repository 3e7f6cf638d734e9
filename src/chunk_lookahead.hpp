// The look-ahead schedule of the double-buffered CUDA path, as a pure decision (no CUDA, tested on
// the CPU): for each chunk the pipeline asks for, whether it was launched ahead and in which slot,
// what to discard, and which chunk to launch ahead in the other slot while the pipeline writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace geomint {

struct ChunkRange {
    std::uint64_t begin = 0;
    std::size_t n = 0;
    bool operator==(const ChunkRange&) const = default;
};

// What compute(begin, n) does, in this order: wait for (and drop) `discard_slot` if set; unless
// `ready`, fill and enqueue the asked chunk in `slot`; fill and enqueue `next` in `next_slot` if
// set; wait for `slot`, whose buffers then hold the asked chunk's results.
struct LookaheadStep {
    int slot = 0;
    bool ready = false;  // the asked chunk was enqueued in `slot` by the previous call
    std::optional<int> discard_slot;
    std::optional<ChunkRange> next;
    int next_slot = 1;
};

// Tracks the one chunk launched ahead. The pipeline asks for consecutive chunks of the capacity
// (the last one shorter), from 0 or from a resumed start: each is predicted after the first. Any
// other request is served synchronously; it is never wrong, only not overlapped.
class ChunkLookahead {
public:
    ChunkLookahead(std::uint64_t size, std::size_t capacity) : size_(size), capacity_(capacity) {}

    // Decides compute(begin, n) and records the chunk it launches ahead.
    LookaheadStep step(std::uint64_t begin, std::size_t n);
    // Forgets the chunk launched ahead (after a failure, once its slot has been waited for).
    void reset() { pending_.reset(); }
    // The chunk launched ahead and its slot, if any.
    const std::optional<ChunkRange>& pending() const { return pending_; }
    int pending_slot() const { return pending_slot_; }

private:
    std::uint64_t size_;
    std::size_t capacity_;
    std::optional<ChunkRange> pending_;
    int pending_slot_ = 0;
};

}  // namespace geomint
