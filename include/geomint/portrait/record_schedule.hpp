// Which states of a trajectory a portrait records: skip the first steps (the transient), then
// every K-th state. Host+device, so both backends record the same states.
#pragma once

#include "geomint/platform.hpp"

namespace geomint::portrait {

// The state after n steps (n = 0: the initial state) is recorded when n >= skip and
// (n - skip) is a multiple of every: with skip = 0 and every = 1, every visited state, the initial
// one included. skip >= 0 and every >= 1 (the caller validates its options).
struct RecordSchedule {
    long long skip = 0;
    long long every = 1;

    GEOMINT_HD bool records(long long n) const { return n >= skip && (n - skip) % every == 0; }

    // How many of the states 0..steps are recorded: what one trajectory adds to the total count.
    GEOMINT_HD long long recorded_states(long long steps) const {
        return steps < skip ? 0 : (steps - skip) / every + 1;
    }
};

}  // namespace geomint::portrait
