// The look-ahead schedule of the double-buffered CUDA path (see chunk_lookahead.hpp).
#include "chunk_lookahead.hpp"

#include <algorithm>

namespace geomint {

LookaheadStep ChunkLookahead::step(std::uint64_t begin, std::size_t n) {
    LookaheadStep s;
    const ChunkRange asked{begin, n};
    if (pending_ && *pending_ == asked) {
        s.ready = true;
        s.slot = pending_slot_;
    } else {
        // A chunk other than the one launched ahead (or none launched): drop that one, so that
        // both slots are free, and compute the asked chunk in slot 0.
        if (pending_) s.discard_slot = pending_slot_;
        s.slot = 0;
    }
    s.next_slot = 1 - s.slot;
    pending_.reset();
    const std::uint64_t after = begin + n;
    if (n > 0 && after < size_) {
        s.next = ChunkRange{after, static_cast<std::size_t>(std::min<std::uint64_t>(capacity_, size_ - after))};
        pending_ = s.next;
        pending_slot_ = s.next_slot;
    }
    return s;
}

}  // namespace geomint
