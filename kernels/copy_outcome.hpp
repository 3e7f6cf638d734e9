// The one host-side copy of a chunk's outcome arrays (outcome_view.hpp): a CUDA slot's pinned
// arrays into the chunk the pipeline reads, or into a synchronous caller's arrays.
#pragma once

#include <algorithm>
#include <cstddef>

#include "outcome_view.hpp"

namespace geomint {

// The first n entries of every outcome array of `from` into `to`, both host memory.
template <class Real>
void copy_outcome(const OutcomeView<Real>& from, const OutcomeView<Real>& to, std::size_t n) {
    std::copy_n(from.energy_error, n, to.energy_error);
    std::copy_n(from.newton_iterations, n, to.newton_iterations);
    std::copy_n(from.steps_completed, n, to.steps_completed);
    std::copy_n(from.status, n, to.status);
}

}  // namespace geomint
